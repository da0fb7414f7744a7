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
}
