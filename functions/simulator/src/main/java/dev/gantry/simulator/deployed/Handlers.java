package dev.gantry.simulator.deployed;

import dev.gantry.simulator.runtime.LambdaRuntime;
import dev.gantry.simulator.world.aws.SimulatedQueue;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.config.codec.EventBridgeCodec;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.config.codec.TerminationCodec;
import dev.gantry.handlers.Heartbeat;
import dev.gantry.handlers.InterruptionQueueHandler;
import dev.gantry.handlers.ProvisioningQueueHandler;
import dev.gantry.handlers.SnapStartPrimer;
import dev.gantry.handlers.SweepHandler;
import dev.gantry.handlers.TerminationQueueHandler;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * Gantry's real Lambda handlers, built with their public constructors over the simulation's services and queues, as
 * the composition root builds them over the real clients: each queue handler changes its own messages' visibility
 * through its queue (a failed run's or record's short retry, a batch held only for the invocation's remaining time or,
 * the provisioner's, for a short lease its heartbeat renews while the run lives),
 * and the termination handler re-queues what a short invocation leaves.
 * The provisioner tells {@link ProvisioningRuns} what each run did. Their embedded-metric lines are discarded (the
 * simulation measures for itself).
 */
public record Handlers(ProvisioningQueueHandler provisioner, InterruptionQueueHandler interruption,
                TerminationQueueHandler termination, SweepHandler sweep, ProvisioningRuns provisionerRuns) {

    /**
     * @param functions the services of each run, over the cluster's configuration when the run starts (a
     *                  {@link dev.gantry.core.config.ConfigBound}, as the composition root passes them)
     * @param reads     the read scopes those services were built over: the sweep's handler runs each sweep in its own
     */
    public static Handlers wire(String cluster, Clock clock, Supplier<SimulatedComposition.Functions> functions,
                         SimulatedComposition.Reads reads, SimulatedQueue provisioningQueue, SimulatedQueue interruptionQueue,
                         SimulatedQueue terminationQueue, LambdaRuntime runtime) {
        Supplier<SimulatedComposition.Services> services = () -> functions.get().others();
        // The provisioner renews its batch's hold from a thread of its own process: the runtime's beat.
        Heartbeat heartbeat = (every, beat) -> runtime.beat(every, beat)::run;
        ObjectMapper json = new ObjectMapper();
        EmbeddedMetrics metrics = new EmbeddedMetrics(json, cluster, new PrintStream(OutputStream.nullOutputStream()));
        ProvisioningRuns runs = new ProvisioningRuns(runtime);
        return new Handlers(
                new ProvisioningQueueHandler(() -> services.get().hintBatches(), new HintCodec(json), metrics, clock, SnapStartPrimer.NONE,
                        provisioningQueue, ProvisioningQueueHandler.RETRY_DELAY, provisioningQueue, cluster, heartbeat)
                        .withListener(runs),
                new InterruptionQueueHandler(() -> services.get().interruptions(), new EventBridgeCodec(json), metrics, clock,
                        interruptionQueue),
                new TerminationQueueHandler(() -> services.get().termination(), new TerminationCodec(json), metrics, clock,
                        terminationQueue, TerminationQueueHandler.RESERVE, terminationQueue)
                        .withConsolidation(() -> services.get().consolidation()),
                // Each sweep in the sweep function's read scope, handed over as the composition root hands it.
                reads.sweep().sweeps(new SweepHandler(() -> functions.get().sweep().sweep(), metrics, clock, () -> 0)), runs);
    }
}
