package dev.gantry.core.provisioning;

import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Pod;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A launch planned as the provisioner plans it, for what-ifs that must show what it would do ({@code gantry plan},
 * {@code gantry status}, the consolidation what-if's pools): the same input ({@link PlanningInputs}: pools with their
 * usage, nodes as they will be labelled, claims in flight) and the same solve ({@link BufferedSolve}: the launch plan,
 * {@code Scheduler.solveForLaunch}, then the buffers' virtual pods). Nothing here is the provisioner's own copy: it calls
 * the code the provisioner calls.
 */
public final class LaunchPlanner {
    private final PlanningInputs inputs;

    public LaunchPlanner(GantryConfig config, InstanceTypeProvider instanceTypes) {
        this.inputs = new PlanningInputs(config, instanceTypes);
    }

    /** The inputs' builder, for the provisioner's own pool and type look-ups. */
    PlanningInputs inputs() {
        return inputs;
    }

    /**
     * The scheduler's input for {@code view}: pending pods, nodes that can take pods, claims in flight, and every pool
     * with a NodeClass, its priced instance types (offerings in {@code unavailable} marked so), usage and node count.
     */
    public SchedulingInput input(ClusterView view, List<NodeClaim> claims, Set<OfferingKey> unavailable, Instant now) {
        return inputs.build(view, claims, unavailable, now);
    }

    /** The pools as a provisioning run would plan with them now: what consolidation decides over. */
    public List<SchedulingInput.PoolOffer> pools(ClusterView view, List<NodeClaim> claims, Set<OfferingKey> unavailable, Instant now) {
        return input(view, claims, unavailable, now).pools();
    }

    /**
     * What the provisioner would launch for {@code input} (built by {@link #input} from {@code view} and
     * {@code claims}): the real pending pods planned for launch, then {@code virtualPods} (headroom buffers) on what is
     * left; both plans as one.
     */
    public SchedulingResult plan(ClusterView view, SchedulingInput input, List<Pod> virtualPods, List<NodeClaim> claims) {
        return solve(view, input, virtualPods, claims).merged();
    }

    /**
     * The provisioner's solve. A launch that leaves room for consolidatable nodes' pods
     * ({@code Scheduler.solveForLaunch}) bets on consolidation following it; not while leaving nodes' pods are in the
     * input ({@link PlanningInputs}): their drains and consolidation's own commands are under way, and a bet placed
     * across them launched nodes that stood empty.
     */
    BufferedSolve solve(ClusterView view, SchedulingInput input, List<Pod> virtualPods, List<NodeClaim> claims) {
        return solve(view, input, virtualPods, claims, java.util.function.UnaryOperator.identity());
    }

    /** {@link #solve}, the real pods' planner wrapped by {@code bound} (the reservations' slots, core.reservation). */
    BufferedSolve solve(ClusterView view, SchedulingInput input, List<Pod> virtualPods, List<NodeClaim> claims,
                        java.util.function.UnaryOperator<java.util.function.Function<SchedulingInput, SchedulingResult>> bound) {
        boolean replacing = input.pending().size() > view.pending().size();
        return BufferedSolve.solve(input, bound.apply(replacing ? Scheduler::solveAsBound : Scheduler::solveForLaunch), virtualPods,
                claims.stream().map(NodeClaim::name).collect(java.util.stream.Collectors.toSet()));
    }
}
