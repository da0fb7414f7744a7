package dev.gantry.core.provisioning;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.scheduling.SchedulingInput;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The NodePools a run leaves out because their NodeClass cannot launch now ({@link NodeClassGate}), and the scheduler's
 * input without them. Each class is asked once a run; each pool left out is logged with its reason.
 */
final class ReadyPools {
    private static final System.Logger LOG = System.getLogger(ReadyPools.class.getName());

    private ReadyPools() {
    }

    /** The pools of {@code config} whose NodeClass {@code gate} says cannot launch, with why, in configuration order. */
    static Map<String, String> closed(GantryConfig config, NodeClassGate gate) {
        Map<String, Optional<String>> byClass = new HashMap<>();
        Map<String, String> out = new LinkedHashMap<>();
        for (NodePool p : config.nodePools()) {
            Optional<NodeClass> nc = config.nodeClassOf(p);
            if (nc.isEmpty()) {
                continue; // no class: the pool is not planned anyway
            }
            Optional<String> why = byClass.computeIfAbsent(nc.get().name(), k -> gate.notReady(nc.get()));
            if (why.isPresent()) {
                out.put(p.name(), why.get());
                LOG.log(System.Logger.Level.WARNING, "ignoring NodePool " + p.name() + ", not ready: its NodeClass "
                        + nc.get().name() + " cannot launch: " + why.get());
            }
        }
        return out;
    }

    /** {@code input} without the pools named in {@code closed} (the same input when there are none). */
    static SchedulingInput without(SchedulingInput input, Set<String> closed) {
        if (closed.isEmpty()) {
            return input;
        }
        return new SchedulingInput(input.pending(), input.nodes(), input.inFlight(), input.daemonSets(),
                input.pools().stream().filter(o -> !closed.contains(o.pool().name())).toList(), input.namespaceLabels());
    }
}
