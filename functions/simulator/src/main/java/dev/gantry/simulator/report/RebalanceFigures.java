package dev.gantry.simulator.report;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.simulator.observe.RebalanceTally;
import dev.gantry.simulator.observe.Recorder;
import java.util.Optional;

/**
 * The summary's {@code rebalance} section, present when EC2 recommended or warned any instance (issue #28 §2): pods
 * moved off those nodes, the share moved before their node's interruption warning, and the pods moved twice.
 */
final class RebalanceFigures {
    private RebalanceFigures() {
    }

    static Optional<ObjectNode> of(Recorder r) {
        RebalanceTally t = r.rebalance();
        if (!t.any()) {
            return Optional.empty();
        }
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("podsMoved", t.moved());
        o.put("movedBeforeWarning", t.movedBeforeWarning());
        o.put("shareBeforeWarning", t.moved() == 0 ? 0 : Math.round(1000.0 * t.movedBeforeWarning() / t.moved()) / 1000.0);
        o.put("movedTwice", t.movedTwice());
        return Optional.of(o);
    }
}
