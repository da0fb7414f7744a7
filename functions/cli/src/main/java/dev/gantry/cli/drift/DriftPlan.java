package dev.gantry.cli.drift;

import dev.gantry.cli.plan.OfflineHeadroom;
import dev.gantry.cli.plan.PlanningConfig;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.disruption.consolidation.Consolidation;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand;
import dev.gantry.core.disruption.consolidation.ConsolidationDecision;
import dev.gantry.core.disruption.consolidation.ConsolidationInput;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.disruption.consolidation.DriftReplacement;
import dev.gantry.core.disruption.consolidation.Rehearsal;
import dev.gantry.core.disruption.drift.DriftCheck;
import dev.gantry.core.disruption.drift.DriftMarker;
import dev.gantry.core.disruption.drift.hash.DriftHashes;
import dev.gantry.core.disruption.drift.rollout.AmiRollout;
import dev.gantry.core.disruption.drift.rollout.RolloutPolicy;
import dev.gantry.core.disruption.execution.ClusterSnapshot;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Drift decided offline through the sweep's own steps, on the claims a dump gives ({@code DumpClaims}):
 * <ol>
 *   <li>{@link DriftMarker} marks each claim drifted or not, and why ({@link DriftCheck}), against the configuration and
 *       what each class resolves now ({@link Images}), the claims held in an in-memory store as the sweep holds them in
 *       its table;</li>
 *   <li>each EC2NodeClass's AMI rollout is decided by {@link AmiRollout#decide} (canary wave, soak, pause);</li>
 *   <li>the next command is {@link DriftReplacement#decide}'s, on the drifted claims the rollouts admit, oldest drifted
 *       first; the nodes it cannot take get its verdicts;</li>
 *   <li>the waves: the drifted nodes in the order drift takes them (empty nodes first, then oldest drifted), each wave as
 *       many per NodePool as its {@code Drifted} budget allows now (the sweep's {@link Consolidation#budgets}), an AMI rollout's
 *       first wave no larger than its canary wave and its next waves after the soak.</li>
 * </ol>
 */
final class DriftPlan {
    /** One drifted node. {@code wave} is 0 when it is held (a paused rollout, a budget of zero). */
    record Row(String node, String claim, String nodePool, String nodeClass, String reason, Instant driftedAt,
               String image, boolean empty, boolean ready, int wave, String verdict) {
    }

    /** A set of nodes replaced together: {@code why} says what bounds it. */
    record Wave(int number, List<String> nodes, String why) {
    }

    record Result(Instant at, int managed, List<Row> drifted, List<Wave> waves, Optional<ConsolidationCommand> next,
                  Map<String, AmiRollout> rollouts, List<String> notes) {
    }

    private DriftPlan() {
    }

    /** {@code headroom}: the buffers whose room the replacements keep, as the sweep keeps it. */
    static Result decide(PlanningConfig planning, Rehearsal.Cluster c, Map<String, String> dumpImages, Images images,
                         OfflineHeadroom headroom) {
        Instant now = c.now();
        GantryConfig cfg = planning.config();
        InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
        c.claims().forEach(store::create);
        List<CloudInstance> instances = new ArrayList<>();
        Map<String, String> byInstance = new HashMap<>();
        for (NodeClaim claim : c.claims()) {
            String image = dumpImages.get(claim.name());
            if (claim.instanceId() != null) {
                instances.add(new CloudInstance(claim.instanceId(), claim.instanceType(), claim.zone(), claim.capacityType(),
                        "running", claim.launchedAt(), claim.nodeName(), Map.of(), image, null, List.of()));
                if (image != null) {
                    byInstance.put(claim.instanceId(), image);
                }
            }
        }
        List<String> notes = new ArrayList<>();
        quietly(() -> new DriftMarker(store, images.resolution()).run(cfg, store.list(now), c.view().nodes(), instances,
                planning.instanceTypes()::instanceTypes, now));
        List<NodeClaim> claims = store.list(now);
        Map<String, Node> nodes = new HashMap<>();
        c.view().nodes().forEach(n -> nodes.putIfAbsent(n.name(), n));

        // Each class's AMI rollout, as the sweep's gate decides it (no pause is recorded offline).
        Map<String, AmiRollout> rollouts = new LinkedHashMap<>();
        Map<String, String> classOfPool = new HashMap<>();
        cfg.nodePools().forEach(p -> cfg.nodeClassOf(p).ifPresent(nc -> classOfPool.put(p.name(), nc.key())));
        dev.gantry.core.disruption.drift.rollout.CanaryPods canaryPods = dev.gantry.core.disruption.drift.rollout.CanaryPods.of(c.view().pods());
        for (NodeClass nc : cfg.nodeClasses()) {
            Optional<Map<String, String>> target = images.images(nc);
            if (target.isEmpty()) {
                if (claims.stream().anyMatch(cl -> nc.key().equals(classOfPool.get(cl.nodePool())))) {
                    notes.add("AMI drift not decided for " + nc.kind() + " " + nc.name() + ": say which image it resolves to now, "
                            + "e.g. --image " + aliasOrName(nc) + "=ami-...");
                }
                continue;
            }
            List<NodeClaim> own = claims.stream().filter(cl -> nc.key().equals(classOfPool.get(cl.nodePool()))).toList();
            rollouts.put(nc.key(), AmiRollout.decide(nc.name(), RolloutPolicy.of(nc.annotations()), target.get(), own, nodes,
                    new AmiRollout.Images(byInstance, null), canaryPods, Optional.empty(), nc.annotations().get(RolloutPolicy.RESUME),
                    null, now));
        }
        long foreign = c.claims().stream().filter(cl -> cl.drift() != null
                && (!cl.drift().nodePoolHashVersion().equals(DriftHashes.NODEPOOL_VERSION)
                || !cl.drift().nodeClassHashVersion().equals(DriftHashes.NODECLASS_VERSION))).count();
        long unstamped = c.claims().stream().filter(cl -> cl.drift() == null).count();
        if (foreign + unstamped > 0) {
            notes.add((foreign + unstamped) + " node(s) carry no Gantry hashes (" + foreign + " with another hash version, "
                    + "e.g. Karpenter's; " + unstamped + " without a NodeClaim in the dump): stamped now, as the sweep does "
                    + "when it takes over, so NodePool/EC2NodeClass edits made before are not seen as drift");
        }
        notes.add("subnet and security-group drift need EC2's view of each instance: not decided offline");
        notes.addAll(headroom.notes(now));

        // The drifted claims in drift's order: oldest drifted first (the sweep's order), then by name.
        List<NodeClaim> drifted = claims.stream().filter(cl -> cl.drift() != null && cl.drift().isDrifted()
                        && !cl.state().isDeleting())
                .sorted(Comparator.comparing((NodeClaim cl) -> cl.drift().driftedAt()).thenComparing(NodeClaim::name)).toList();
        List<String> admitted = drifted.stream().filter(cl -> admits(cl, rollouts, classOfPool, byInstance))
                .map(NodeClaim::name).toList();

        List<PoolOffer> pools = planning.planner().pools(c.view(), claims, Set.of(), now);
        ConsolidationInput input = new ClusterSnapshot(c.view(), c.pdbs(), claims)
                .input(pools, headroom.virtualPods(now), new ConsolidationSettings(false, ConsolidationSettings.Strategy.GANTRY), now,
                        null, Set.of());
        ConsolidationDecision d = DriftReplacement.decide(input, admitted);
        Map<String, String> verdicts = new HashMap<>();
        d.verdicts().forEach(v -> verdicts.put(v.node(), v.kind() + ": " + v.reason()));
        d.command().ifPresent(cmd -> cmd.nodes().forEach(n -> verdicts.put(n, "next: replaced by the next drift command")));

        Map<String, Boolean> empty = new HashMap<>();
        input.nodes().forEach(n -> empty.put(n.name(), n.pods().stream().noneMatch(EvictionCost::reschedulable)));
        List<NodeClaim> ordered = new ArrayList<>();
        for (boolean e : new boolean[] {true, false}) {
            drifted.stream().filter(cl -> empty.getOrDefault(cl.nodeName(), false) == e).forEach(ordered::add);
        }
        Map<String, Integer> waveOf = new HashMap<>();
        Map<String, java.time.Duration> soaks = new HashMap<>();
        cfg.nodeClasses().forEach(nc -> soaks.put(nc.key(), RolloutPolicy.of(nc.annotations()).soak()));
        List<Wave> waves = waves(ordered, pools, input, rollouts, soaks, classOfPool, now, waveOf);

        List<Row> rows = new ArrayList<>();
        for (NodeClaim cl : ordered) {
            Node n = nodes.get(cl.nodeName());
            rows.add(new Row(cl.nodeName(), cl.name(), cl.nodePool(), classOfPool.get(cl.nodePool()), cl.drift().drifted(),
                    cl.drift().driftedAt(), cl.instanceId() == null ? null : byInstance.get(cl.instanceId()),
                    empty.getOrDefault(cl.nodeName(), false), n != null && n.ready(), waveOf.getOrDefault(cl.name(), 0),
                    verdicts.getOrDefault(cl.nodeName(), admitted.contains(cl.name()) ? null
                            : "held: " + Optional.ofNullable(rollouts.get(classOfPool.get(cl.nodePool()))).map(AmiRollout::why).orElse(""))));
        }
        int managed = (int) claims.stream().filter(cl -> cl.nodeName() != null).count();
        return new Result(now, managed, rows, waves, d.command(), rollouts, notes);
    }

    /** As the sweep's gate ({@code AmiRollouts#admits}): an AMI-drifted claim waits while its class's rollout holds old nodes. */
    private static boolean admits(NodeClaim cl, Map<String, AmiRollout> rollouts, Map<String, String> classOfPool,
                                  Map<String, String> byInstance) {
        if (!DriftCheck.AMI.equals(cl.drift().drifted())) {
            return true;
        }
        AmiRollout r = rollouts.get(classOfPool.get(cl.nodePool()));
        if (r == null) {
            return false;
        }
        String image = new AmiRollout.Images(byInstance, null).of(cl);
        return r.admitsOldNodes() || (image != null && r.target().containsValue(image));
    }

    /**
     * The waves: each takes, per NodePool, as many of the remaining nodes as its {@code Drifted} budget allows now (the
     * sweep's count: deleting nodes use it up, NotReady ones only up to one less than the allowance); an
     * AMI rollout in its canary phase gives its first wave no more than the canaries left, and its nodes in later waves
     * go after the soak. A paused rollout's nodes and a pool whose budget allows none get no wave.
     */
    private static List<Wave> waves(List<NodeClaim> ordered, List<PoolOffer> pools, ConsolidationInput input,
                                    Map<String, AmiRollout> rollouts, Map<String, java.time.Duration> soaks,
                                    Map<String, String> classOfPool, Instant now, Map<String, Integer> waveOf) {
        Map<String, PoolOffer> byName = new LinkedHashMap<>();
        pools.forEach(p -> byName.put(p.pool().name(), p));
        Map<String, Integer> allowed = Consolidation.budgets(input, byName, NodePool.Reason.Drifted);
        // Per class in its canary phase, the canaries still to go out; a class in it or soaking rolls its other nodes
        // only after the soak.
        Map<String, Integer> canariesLeft = new HashMap<>();
        Set<String> afterSoak = new java.util.HashSet<>();
        rollouts.forEach((nc, r) -> {
            if (r.phase() == AmiRollout.Phase.CANARY || r.phase() == AmiRollout.Phase.WAITING) {
                canariesLeft.put(nc, Math.max(1, r.canaries() - r.exposed()));
            } else if (r.phase() == AmiRollout.Phase.SOAK) {
                afterSoak.add(nc);
            }
        });
        List<NodeClaim> left = new ArrayList<>();
        for (NodeClaim cl : ordered) {
            boolean ami = DriftCheck.AMI.equals(cl.drift().drifted());
            AmiRollout r = ami ? rollouts.get(classOfPool.get(cl.nodePool())) : null;
            boolean held = ami && (r == null || r.phase() == AmiRollout.Phase.PAUSED);
            if (!held && allowed.getOrDefault(cl.nodePool(), 0) > 0) {
                left.add(cl);
            }
        }
        List<Wave> waves = new ArrayList<>();
        while (!left.isEmpty()) {
            Map<String, Integer> taken = new java.util.TreeMap<>();
            List<String> nodes = new ArrayList<>();
            Set<String> canaryNow = new java.util.TreeSet<>();
            Set<String> soakedNow = new java.util.TreeSet<>();
            for (NodeClaim cl : List.copyOf(left)) {
                String nc = classOfPool.get(cl.nodePool());
                boolean ami = DriftCheck.AMI.equals(cl.drift().drifted());
                if (taken.getOrDefault(cl.nodePool(), 0) >= allowed.get(cl.nodePool())) {
                    continue;
                }
                if (ami && canariesLeft.containsKey(nc)) {
                    if (canariesLeft.get(nc) == 0) {
                        continue; // waits for the canaries' soak
                    }
                    canariesLeft.merge(nc, -1, Integer::sum);
                    canaryNow.add(nc);
                } else if (ami && afterSoak.contains(nc)) {
                    soakedNow.add(nc);
                }
                taken.merge(cl.nodePool(), 1, Integer::sum);
                nodes.add(cl.nodeName());
                waveOf.put(cl.name(), waves.size() + 1);
                left.remove(cl);
            }
            List<String> why = new ArrayList<>();
            soakedNow.forEach(nc -> why.add("after EC2NodeClass " + nc + "'s canaries soaked " + human(soaks.get(nc))));
            canaryNow.forEach(nc -> why.add("canary wave of EC2NodeClass " + nc + " (" + rollouts.get(nc).canaries()
                    + " node(s)); the rest waits for its soak, " + human(soaks.get(nc))));
            taken.forEach((pool, n) -> why.add("NodePool " + pool + ": " + n + " of " + allowed.get(pool) + " allowed by its Drifted budget"));
            // A canary wave, once out, soaks: the class's other nodes go in the waves after it.
            canariesLeft.keySet().forEach(afterSoak::add);
            canariesLeft.clear();
            afterSoak.removeAll(soakedNow);
            if (!nodes.isEmpty()) {
                waves.add(new Wave(waves.size() + 1, nodes, String.join("; ", why)));
            }
        }
        return waves;
    }

    static String human(java.time.Duration d) {
        return d.toSeconds() % 60 != 0 ? d.toSeconds() + "s" : d.toMinutes() % 60 != 0 || d.isZero() ? d.toMinutes() + "m" : d.toHours() + "h";
    }

    private static String aliasOrName(NodeClass nc) {
        return nc.amiSelectorTerms().stream().map(NodeClass.AmiSelectorTerm::alias).filter(java.util.Objects::nonNull)
                .findFirst().orElse(nc.name());
    }

    /** Runs {@code r} with the drift marker's per-claim log lines off: the report says the same. */
    private static void quietly(Runnable r) {
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(DriftMarker.class.getName());
        java.util.logging.Level before = log.getLevel();
        log.setLevel(java.util.logging.Level.WARNING);
        try {
            r.run();
        } finally {
            log.setLevel(before);
        }
    }
}
