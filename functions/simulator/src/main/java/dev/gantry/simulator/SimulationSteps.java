package dev.gantry.simulator;

import dev.gantry.config.codec.QueueHints;
import dev.gantry.core.adoption.Adopter;
import dev.gantry.core.adoption.Adoption;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.disruption.drift.DriftMarker;
import dev.gantry.core.disruption.drift.rollout.AmiRollouts;
import dev.gantry.core.disruption.execution.ConsolidationService;
import dev.gantry.core.interruption.InterruptionService;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.sweep.InstanceStatusStep;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.handlers.InvocationScope;
import dev.gantry.simulator.deployed.SimulatedClusterObjects;
import dev.gantry.simulator.deployed.SimulatedComposition;
import dev.gantry.simulator.world.aws.SimulatedCloud;
import dev.gantry.simulator.world.health.SimulatedStatusChecks;
import dev.gantry.simulator.world.kube.ApiServer;
import dev.gantry.simulator.world.kube.KarpenterObjects;
import java.time.Clock;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

/**
 * The sweep steps a simulated run adds over each configuration, in the order the deployed composition root adds them:
 * adoption of Karpenter's instances, drift (with the AMI rollouts' gate on consolidation), the Capacity Block step, EC2's
 * instance status checks, then the cluster objects (NodeClaims, NodePool and EC2NodeClass status). A new sweep step of the deployed functions gets
 * its line here too, so the simulator runs what is deployed.
 *
 * @param drifted told each claim the drift marker marks, with its reason (the summary's drift timeline)
 */
record SimulationSteps(String cluster, SimulatedCloud cloud, ApiServer api, Catalog catalog,
                       AmiRollouts.Wired rollouts, BiConsumer<String, String> drifted, SimulatedStatusChecks statusChecks,
                       QueueHints hints, KarpenterObjects karpenterObjects, Clock clock)
        implements SimulatedComposition.SweepSteps {

    @Override
    public void hook(SweepService sweep, TerminationService termination, ClusterConfig read, ConsolidationService consolidation,
                     InvocationScope reads) {
        // The function's scoped cluster and store, as the composition root passes them; the NodeClaim objects, the status
        // and their Events go straight to the API server, as ClusterObjects writes them through the cluster client.
        NodeClaimStore claims = reads.claims();
        sweep.withAdoption(new Adopter(cluster, claims, cloud, reads.cluster(), termination,
                () -> read.config().nodePools().stream().map(NodePool::name).collect(Collectors.toSet()),
                Adoption.Prices.of(() -> read.config().nodeClasses().isEmpty() ? List.of()
                        : catalog.instanceTypes(read.config().nodeClasses().getFirst()))));
        sweep.withDrift(new DriftMarker(claims, cloud).onListed(rollouts.rollouts()::listed).onDrifted(drifted),
                read::config, catalog::instanceTypes);
        consolidation.withDriftGate(rollouts.rollouts());
        sweep.withCapacityBlockExpiry(new dev.gantry.core.sweep.CapacityBlockExpiry(cloud.reservations(), termination));
        var pools = read.config().nodePools().stream().collect(Collectors.toMap(NodePool::name, p -> p));
        sweep.withInstanceStatus(new InstanceStatusStep(statusChecks, termination,
                new InterruptionService(claims, reads.cluster(), reads.cluster(), termination, hints, pools, clock)::handle));
        SimulatedClusterObjects.hook(karpenterObjects, sweep, termination, read, catalog, api);
    }
}
