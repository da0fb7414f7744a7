package dev.gantry.simulator.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodePool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The static pool invariants catch a count off target too long and a static node consolidated. Gantry's own. */
class StaticPoolChecksTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    final List<String> violations = new ArrayList<>();
    final Map<String, Boolean> open = new HashMap<>();
    final Checks.Episodes episodes = new Checks.Episodes() {
        @Override
        public void episode(boolean bad, String kind, String key, Supplier<String> message) {
            if (bad && open.put(kind + key, true) == null) {
                violations.add(kind + ": " + message.get());
            } else if (!bad) {
                open.remove(kind + key);
            }
        }

        @Override
        public void violated(String kind, String message) {
            violations.add(kind + ": " + message);
        }
    };

    static NodePool fixed(int replicas) {
        return new NodePool("fixed", Map.of(), new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(), List.of(),
                new NodePool.NodeClassRef(null, null, "default"), Optional.empty(), Optional.empty()), null, Map.of(), null, null,
                replicas);
    }

    static NodeClaim node(String name) {
        return NodeClaim.launching(name, "fixed", "h", List.of(), List.of("m5.xlarge"), List.of(), "m5.xlarge", "us-east-1a",
                "on-demand", 0.192, T0).launched("i-" + name, "m5.xlarge", "us-east-1a", "on-demand", 0.192, T0)
                .registered("node-" + name, T0);
    }

    @Test
    void aCountOffTargetIsAViolationOnlyAfterOneSweepPlusOneBoot() {
        StaticPoolChecks checks = new StaticPoolChecks(Map.of("fixed", fixed(2)), Duration.ofMinutes(1));
        checks.check(List.of(node("a")), T0, episodes);
        checks.check(List.of(node("a")), T0.plus(Duration.ofMinutes(3)), episodes);
        assertThat(violations).isEmpty();
        checks.check(List.of(node("a")), T0.plus(Duration.ofMinutes(3)).plusSeconds(1), episodes);
        assertThat(violations).singleElement().asString().startsWith("staticCountOffTarget: static NodePool fixed has 1 nodes, not 2");
        checks.check(List.of(node("a"), node("b")), T0.plus(Duration.ofMinutes(4)), episodes);
        checks.check(List.of(node("a"), node("b")), T0.plus(Duration.ofMinutes(9)), episodes);
        assertThat(violations).hasSize(1);
    }

    @Test
    void aStaticNodeDeletedAsEmptyOrUnderutilizedIsAViolationButNotAScaleDown() {
        StaticPoolChecks checks = new StaticPoolChecks(Map.of("fixed", fixed(0)), Duration.ofMinutes(1));
        checks.check(List.of(node("a").draining("overprovisioned", T0)), T0, episodes);
        assertThat(violations).isEmpty();
        checks.check(List.of(node("b").draining("underutilized", T0)), T0, episodes);
        assertThat(violations).singleElement().asString().startsWith("staticNodeConsolidated: nodeclaim/b");
    }
}
