package dev.gantry.simulator.observe;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import java.time.Instant;

/** Whether Gantry drained a node before it terminated its instance: <b>podsKilledWithoutDrain</b>. */
final class DrainChecks {
    private final Checks.World world;
    private final Invariants invariants;

    DrainChecks(Checks.World world, Invariants invariants) {
        this.world = world;
        this.invariants = invariants;
    }

    /**
     * <b>podsKilledWithoutDrain</b>: Gantry terminates an instance (TerminateInstances, not EC2's own reclaim) whose
     * node still runs pods the drain must wait for (not terminal, not mirror, not tolerating the disrupted taint), unless
     * the drain's grace period (the pool's terminationGracePeriod, capped by an interruption deadline) has run out,
     * or the pod was being deleted and its own grace period has run out.
     */
    void terminatedByGantry(SimulatedInstance i) {
        Node n = world.cluster().node(i.dnsName());
        if (n == null) {
            return;
        }
        Instant now = world.clock().instant();
        NodeClaim c = world.truth().findByInstanceId(i.id(), now).orElse(null);
        Instant graceEnd = null;
        if (c != null && c.deletionRequestedAt() != null) {
            graceEnd = dev.gantry.core.termination.TerminationDecision.graceExpiry(c.deletionRequestedAt(),
                    java.util.Optional.ofNullable(world.pools().get(c.nodePool())).flatMap(p -> p.template().terminationGracePeriod()),
                    world.truth().marker(dev.gantry.core.termination.TerminationMarkers.deadline(c.name())));
        }
        boolean graceOver = graceEnd != null && !now.isBefore(graceEnd);
        for (Pod p : world.cluster().podsOn(n.name())) {
            if (p.status().isTerminal() || p.isMirror()
                    || dev.gantry.core.model.Toleration.anyTolerates(p.tolerations(), dev.gantry.core.model.Taint.DISRUPTED)) {
                continue;
            }
            Instant deleting = p.status().deletingSince();
            long grace = p.status().terminationGracePeriodSeconds() == null ? 30 : p.status().terminationGracePeriodSeconds();
            boolean killed = deleting == null ? !graceOver : now.isBefore(deleting.plusSeconds(grace));
            if (killed) {
                invariants.violated("podsKilledWithoutDrain", "TerminateInstances on " + i.id() + " (node " + n.name()
                        + (c == null ? ", no nodeclaim" : ", nodeclaim/" + c.name() + " " + c.state() + " for " + c.deletionReason())
                        + ") while pod " + p.key() + " runs there, neither evicted nor past its grace period");
            }
        }
    }
}
