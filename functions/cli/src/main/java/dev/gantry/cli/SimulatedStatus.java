package dev.gantry.cli;

import dev.gantry.simulator.report.StatusCapture;
import dev.gantry.cli.status.StatusSnapshot;
import java.util.List;
import java.util.Map;

/**
 * A simulation's status capture as {@code gantry status}'s snapshot: the same view, without an AWS account. Only the
 * events the simulated Gantry recorded explain pending pods (no extra read-only plan is made).
 */
final class SimulatedStatus {
    private SimulatedStatus() {
    }

    static StatusSnapshot snapshot(StatusCapture c) {
        List<StatusSnapshot.GantryEvent> events = c.events().stream().map(e -> new StatusSnapshot.GantryEvent(e.at(),
                e.kind(), e.namespace(), e.name(), e.type(), e.reason(), e.message())).toList();
        return new StatusSnapshot(c.now(), c.pools(), c.claims(), c.usage(), c.nodes(), c.pods(), events, Map.of(),
                c.buffers(), c.targets(), c.history(), c.bootLead(), c.backoffs());
    }
}
