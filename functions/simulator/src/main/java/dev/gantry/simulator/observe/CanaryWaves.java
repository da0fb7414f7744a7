package dev.gantry.simulator.observe;

import dev.gantry.core.disruption.drift.rollout.RolloutPolicy;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The invariant {@code badImagePastCanary}: a bad AMI never gets past its canary wave. Counted per EC2NodeClass, the
 * distinct commands (drift or consolidation) whose replacements were launched on a bad image, each replacing one node,
 * must not outnumber the class's canary wave ({@link RolloutPolicy#canaries}, over the most
 * nodes the class has had). Launches for pending pods are not counted: they are not the rollout's.
 */
final class CanaryWaves {
    private final Predicate<String> bad;
    private final NodeClaimStore truth;
    private final Supplier<GantryConfig> config;
    private final Map<String, Set<String>> replacements = new HashMap<>();
    private final Set<String> seen = new java.util.HashSet<>();
    private final Map<String, Integer> mostNodes = new HashMap<>();

    CanaryWaves(Predicate<String> bad, NodeClaimStore truth, Supplier<GantryConfig> config) {
        this.bad = bad;
        this.truth = truth;
        this.config = config;
    }

    void check(Instant now, List<SimulatedInstance> live, Checks.Episodes out) {
        Map<String, Integer> nodes = new HashMap<>();
        live.stream().filter(i -> i.request() != null).forEach(i -> nodes.merge(i.request().nodeClass().key(), 1, Integer::sum));
        nodes.forEach((k, v) -> mostNodes.merge(k, v, Math::max));
        for (SimulatedInstance i : live) {
            if (i.request() == null || !bad.test(i.imageId())) {
                continue;
            }
            String nc = i.request().nodeClass().key();
            java.util.Optional<NodeClaim> claim = truth.get(i.request().clientToken(), now);
            if (!seen.add(i.id()) || claim.isEmpty() || !claim.get().fromConsolidation()) {
                continue;
            }
            String command = claim.get().consolidation() != null ? claim.get().consolidation().command() : i.id();
            if (!replacements.computeIfAbsent(nc, k -> new LinkedHashSet<>()).add(command)) {
                continue;
            }
            int wave = RolloutPolicy.of(config.get().nodeClasses().stream().filter(c -> c.key().equals(nc)).findFirst()
                    .map(NodeClass::annotations).orElse(Map.of())).canaries(mostNodes.getOrDefault(nc, 1));
            if (replacements.get(nc).size() > wave) {
                out.violated("badImagePastCanary", "NodeClass " + nc + ": replacement " + i.id() + " is of the "
                        + replacements.get(nc).size() + "th command onto bad image " + i.imageId() + ", past its canary wave of " + wave);
            }
        }
    }
}
