package dev.gantry.simulator;

import dev.gantry.simulator.report.Summary;
import dev.gantry.simulator.world.aws.SimulatedQueue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the summary of a {@link Simulation} reports, read from it at the end of the run. */
final class RunSummary {
    private RunSummary() {
    }

    /** What the summary reports, read at the end of the run. */
    static Summary.Run of(Simulation s) {
        Map<String, Integer> deadLetters = new LinkedHashMap<>();
        for (SimulatedQueue q : List.of(s.provisioningQueue, s.interruptionQueue, s.terminationQueue)) {
            deadLetters.put(q.name(), q.deadLetters().size());
        }
        var queues = new Summary.Queues(s.eventSources.provisioningRuns(), s.eventSources.failedRuns(), s.provisioningQueue.sentCount(),
                s.provisioningQueue.duplicateCount(), deadLetters, s.cloud.faults().throttledCalls(), s.cloud.faults().refusedCalls(),
                s.crashing.crashes(), s.messagesLost(), s.provisioningQueue.duplicateDeliveries()
                        + s.interruptionQueue.duplicateDeliveries() + s.terminationQueue.duplicateDeliveries());
        var functions = new Summary.Functions(!s.scenario.latency().build(0).instant(), s.eventSources.killedInvocations(),
                s.eventSources.sweepsThrottled(), s.runtime.stats());
        var injected = new Summary.Injected(s.scenario.faults().chaos(), s.faults.injected(), s.cloud.tokenMismatches(), s.claims.throttled(),
                s.claims.lostAnswers());
        return new Summary.Run(s.scenario, s.start, s.catalog, s.pools.values(), s.recorder, s.invariants.counts(), s.pendingPods(),
                s.liveInstances().size(), s.headroom.buffers().stream().map(b -> b.key()).toList(), queues, functions, injected,
                SelfCostMeters.bill(s.selfUsage, s.runtime.stats(), s.webhook.requests(), s.scenario));
    }
}
