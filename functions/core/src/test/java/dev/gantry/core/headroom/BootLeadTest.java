package dev.gantry.core.headroom;

import static dev.gantry.core.lifecycle.LifecycleFixtures.launched;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.NodeClaim;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BootLeadTest {
    private static NodeClaim booted(String name, int seconds) {
        NodeClaim c = launched(name, "p");
        return c.registered("node-" + name, c.createdAt().plusSeconds(seconds - 5)).initialized(c.createdAt().plusSeconds(seconds));
    }

    @Test
    void theLeadIsTheNinetiethPercentileBootOfTheClaimsSeenPlusOneSweepInterval() {
        List<NodeClaim> claims = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            claims.add(booted("c" + i, 20 + i)); // 21 s .. 30 s
        }
        claims.add(launched("booting", "p")); // not initialized: not a measurement

        assertThat(BootLead.measuredBoot(claims)).isEqualTo(Duration.ofSeconds(29));
        assertThat(BootLead.of(claims, Duration.ofMinutes(1))).isEqualTo(Duration.ofSeconds(89));
    }

    @Test
    void withoutAnyBootMeasuredTheDefaultBootIsUsed() {
        assertThat(BootLead.of(List.of(launched("booting", "p")), Duration.ofMinutes(1)))
                .isEqualTo(BootLead.DEFAULT_BOOT.plusMinutes(1));
    }

    @Test
    void aCachedLeadIsReadAgainOnlyAfterItsTtl() {
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        var lead = BootLead.cached(now -> Duration.ofSeconds(60 + reads.incrementAndGet()), Duration.ofMinutes(10));
        java.time.Instant t = java.time.Instant.parse("2026-12-01T08:00:00Z");

        assertThat(lead.apply(t)).isEqualTo(Duration.ofSeconds(61));
        assertThat(lead.apply(t.plusSeconds(599))).isEqualTo(Duration.ofSeconds(61));
        assertThat(lead.apply(t.plusSeconds(600))).isEqualTo(Duration.ofSeconds(62));
        assertThat(reads).hasValue(2);
    }
}
