package dev.gantry.simulator.deployed;

import dev.gantry.config.codec.QueueHints;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.disruption.execution.ConsolidationService;
import dev.gantry.core.headroom.DemandHistoryStore;
import dev.gantry.core.headroom.Headroom;
import dev.gantry.core.interruption.InterruptionService;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.Fanout;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.HintBatchService;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.core.status.NodeClassReadiness;
import dev.gantry.core.sweep.InstanceFacts;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.work.WorkQueue;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.handlers.InvocationReads;
import dev.gantry.handlers.InvocationScope;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The simulation's composition root for the services of a run: built over one configuration, as the deployed
 * composition root builds them ({@code Composition.compose}), over the simulated ports, which are built once. A
 * {@link dev.gantry.core.config.ConfigBound} calls {@link #compose} again when the cluster's NodePools or NodeClasses
 * change, and tells {@code composed} (the simulation's judges follow the configuration Gantry runs with).
 *
 * @param reads                the simulated API server and store, in each function's read scope ({@link Reads})
 * @param consolidationJournal where consolidation tells its progress
 * @param reservations         the capacity reservations the provisioner's reserved offerings come from
 */
public record SimulatedComposition(String cluster, Clock clock, Reads reads, CloudProvider cloud,
                                   CloudProvider launcher, Catalog catalog, Fanout fanout, Headroom headroom,
                                   DemandHistoryStore history, QueueHints hints, WorkQueue terminationQueue,
                                   ConsolidationSettings consolidation, ConsolidationService.Journal consolidationJournal,
                                   InstanceFacts.Source facts, Consumer<ClusterConfig> composed, SweepSteps steps,
                                   Reservations reservations) {

    /**
     * The capacity reservations port ({@code SimulatedReservations}) and the ledger of their counts that the deployed
     * composition root keeps per process; here one ledger serves every invocation (one warm process).
     */
    public record Reservations(dev.gantry.core.reservation.CapacityReservations port,
                               dev.gantry.core.reservation.ReservationLedger ledger) {
    }

    /**
     * The API server and the store as each simulated function reads them: in a read scope of its own, built by the code
     * that builds each deployed function's ({@link InvocationScope}). The sweep's handler runs each sweep in its scope
     * ({@link InvocationScope#sweeps}), as the deployed one does; the other functions' handlers never open theirs, so
     * they read straight through, as deployed. Deployed, each function is a process of its own, and so is each scope
     * here: a write by the termination function does not drop the lists a sweep keeps, nor does a provisioning run read
     * them.
     */
    public record Reads(InvocationScope sweep, InvocationScope others) {
        public static <C extends ClusterReader & ClusterWriter> Reads over(C cluster, NodeClaimStore store) {
            return new Reads(InvocationScope.over(cluster, store), InvocationScope.over(cluster, store));
        }
    }

    /** The sweep steps added over one configuration (the cluster-object steps), as the composition root adds them. */
    @FunctionalInterface
    public interface SweepSteps {
        void hook(SweepService sweep, TerminationService termination, ClusterConfig read, ConsolidationService consolidation,
                  InvocationScope reads);
    }

    /** What the handlers run, over one configuration. */
    public record Services(HintBatchService hintBatches, InterruptionService interruptions, TerminationService termination,
                           SweepService sweep, ConsolidationService consolidation) {
    }

    /** Each function's services over one configuration: the sweep's, and the other functions' ({@link Reads}). */
    public record Functions(Services sweep, Services others) {
    }

    public Functions compose(ClusterConfig c) {
        Functions f = new Functions(compose(c, reads.sweep()), compose(c, reads.others()));
        composed.accept(c);
        return f;
    }

    private Services compose(ClusterConfig c, InvocationScope scope) {
        InvocationReads k = scope.cluster(); // the API server, each list read once between writes in a sweep
        NodeClaimStore claims = scope.claims();
        GantryConfig config = c.config();
        Map<String, NodePool> pools = new LinkedHashMap<>();
        config.nodePools().forEach(p -> pools.put(p.name(), p));
        TerminationService termination = new TerminationService(k, k, claims, cloud, terminationQueue, pools, clock);
        // Reserved offerings from what each NodeClass's capacityReservationSelectorTerms select, as deployed (core.reservation).
        Provisioner provisioner = new Provisioner(k, k, claims, launcher, new dev.gantry.core.reservation.ReservedOfferings(
                catalog, reservations.port(), reservations.ledger(), clock), config, clock, Provisioner.DEFAULT_PARALLELISM)
                .withFanout(fanout).withHeadroom(headroom).withDemandHistory(history).withReservations(reservations.ledger())
                .withNodeClassGate(NodeClassReadiness.gate(SimulatedClusterObjects.resolver(config)));
        SweepService sweep = new SweepService(cluster, k, k, claims, cloud, termination, hints, pools, facts, clock)
                .withHeadroom(headroom);
        HintBatchService hintBatches = new HintBatchService(provisioner, k, claims, termination::startForDeletedNode,
                sweep::registerNodes, clock);
        InterruptionService interruptions = new InterruptionService(claims, k, k, termination, hints, pools, clock);
        // Consolidation as the composition root wires it: decided in the sweep, carried on by termination messages.
        ConsolidationService consolidationService = new ConsolidationService(k, k, claims, termination, hints,
                terminationQueue, provisioner::poolOffers, provisioner::recordReplacement, consolidation, clock)
                .withJournal(consolidationJournal).withHeadroom(headroom);
        sweep.withConsolidation(consolidationService).withStaticCapacity(new dev.gantry.core.staticcapacity.StaticCapacity(
                config::nodePools, provisioner::recordFromTemplate, termination, hints));
        steps.hook(sweep, termination, c, consolidationService, scope);
        return new Services(hintBatches, interruptions, termination, sweep, consolidationService);
    }
}
