package dev.gantry.cli.consolidate;

import dev.gantry.cli.plan.OfflineHeadroom;
import dev.gantry.cli.plan.PlanningConfig;
import dev.gantry.core.disruption.consolidation.Consolidation;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand;
import dev.gantry.core.disruption.consolidation.ConsolidationDecision;
import dev.gantry.core.disruption.consolidation.ConsolidationInput;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.disruption.consolidation.Rehearsal;
import dev.gantry.core.disruption.execution.ClusterSnapshot;
import dev.gantry.core.model.Node;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Consolidation decided offline exactly as the sweep decides it: pools as a provisioning run plans with them
 * ({@link dev.gantry.core.provisioning.LaunchPlanner}), the engine's input built by {@link ClusterSnapshot} from the
 * cluster view, its PodDisruptionBudgets and its NodeClaims, with the buffers' room kept ({@link OfflineHeadroom}), then
 * {@link Consolidation#decide}. With
 * {@link #settle}, each command is carried out on the cluster in memory ({@link Rehearsal}) and the next one decided
 * once the step has settled, until none is left.
 */
final class WhatIf {
    /** A bound on the steps of one run: far more than any real cluster takes (each step removes a node at least). */
    static final int MAX_STEPS = 5_000;

    private final PlanningConfig planning;
    private final ConsolidationSettings settings;
    private final OfflineHeadroom headroom;

    /** {@code headroom}: the buffers whose room every decision keeps, as the sweep keeps it. */
    WhatIf(PlanningConfig planning, ConsolidationSettings settings, OfflineHeadroom headroom) {
        this.planning = planning;
        this.settings = settings;
        this.headroom = headroom;
    }

    /** One decision and what it was taken on. */
    record Decided(Rehearsal.Cluster cluster, List<PoolOffer> pools, ConsolidationDecision decision, long millis) {
        /** The $/h of every node, as consolidation prices it. */
        double price() {
            return Prices.total(cluster.view().nodes(), pools);
        }
    }

    Decided decide(Rehearsal.Cluster c) {
        List<PoolOffer> pools = planning.planner().pools(c.view(), c.claims(), Set.of(), c.now());
        ConsolidationInput input = new ClusterSnapshot(c.view(), c.pdbs(), c.claims())
                .input(pools, headroom.virtualPods(c.now()), settings, c.now(), null, Set.of());
        long t0 = System.nanoTime();
        ConsolidationDecision d = Consolidation.decide(input);
        return new Decided(c, pools, d, (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * One command of a run, applied: the command, when it was decided, what the nodes it removes were, and the
     * cluster's $/h before and after it.
     */
    record AppliedCommand(int number, Instant at, ConsolidationCommand command, Map<String, String> removed, double before,
                          double after, long millis) {
    }

    /** Where a run ends: its steps, the settled cluster, and how far that is from the bounds. */
    record Settled(String strategy, List<AppliedCommand> steps, Rehearsal.Cluster end, List<PoolOffer> pools, double before, double after,
                   Bounds bounds, int podsMoved, boolean cutShort) {
        int nodes() {
            return end.view().nodes().size();
        }

        /** Nodes by {@code instance-type capacity-type}, most first. */
        Map<String, Integer> byType() {
            Map<String, Integer> out = new java.util.TreeMap<>();
            for (Node n : end.view().nodes()) {
                out.merge(Prices.kind(n), 1, Integer::sum);
            }
            Map<String, Integer> sorted = new LinkedHashMap<>();
            out.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).forEach(e -> sorted.put(e.getKey(), e.getValue()));
            return sorted;
        }
    }

    /**
     * Decides, carries the command out, waits for the step to settle ({@link Rehearsal#settle}), and decides again, until
     * no command comes. {@code progress} hears about each step once the run has taken over two seconds.
     */
    Settled settle(Rehearsal.Cluster start, Consumer<String> progress) {
        long t0 = System.nanoTime();
        List<AppliedCommand> steps = new ArrayList<>();
        Rehearsal.Cluster c = start;
        Decided d = decide(c);
        double before = d.price();
        int moved = 0;
        while (d.decision().command().isPresent() && steps.size() < MAX_STEPS) {
            ConsolidationCommand cmd = d.decision().command().get();
            Map<String, String> removed = new LinkedHashMap<>();
            for (Node n : c.view().nodes()) {
                if (cmd.nodes().contains(n.name())) {
                    removed.put(n.name(), Prices.describe(n));
                }
            }
            double price = d.price();
            Duration settle = Rehearsal.settle(d.pools());
            c = Rehearsal.apply(c, cmd, d.pools());
            double after = Prices.total(c.view().nodes(), d.pools());
            steps.add(new AppliedCommand(steps.size() + 1, d.cluster().now(), cmd, removed, price, after, d.millis()));
            moved += cmd.podsMoved();
            if ((System.nanoTime() - t0) / 1_000_000 >= 2000) {
                progress.accept(String.format("%s step %d: %s, %d node%s, $/h %.4f -> %.4f, decided in %.1f s",
                        settings.strategy().name().toLowerCase(), steps.size(), cmd.method(), cmd.nodes().size(),
                        cmd.nodes().size() == 1 ? "" : "s", price, after, d.millis() / 1000.0));
            }
            c = c.at(c.now().plus(settle));
            d = decide(c);
        }
        return new Settled(settings.strategy().name().toLowerCase(), steps, c, d.pools(), before, d.price(),
                Bounds.of(c.view(), d.pools()), moved, steps.size() >= MAX_STEPS);
    }
}
