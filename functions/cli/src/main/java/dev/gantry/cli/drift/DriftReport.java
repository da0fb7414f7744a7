package dev.gantry.cli.drift;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand;
import dev.gantry.core.disruption.drift.rollout.AmiRollout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code gantry drift}'s output: a table for people, or JSON. */
final class DriftReport {
    private DriftReport() {
    }

    static String table(DriftPlan.Result r) {
        StringBuilder b = new StringBuilder();
        b.append("Drift as of ").append(r.at()).append(": ").append(r.drifted().size()).append(" of ").append(r.managed())
                .append(" managed node").append(r.managed() == 1 ? "" : "s").append(" drifted\n");
        if (!r.drifted().isEmpty()) {
            b.append('\n').append(String.format("%-28s %-14s %-14s %-22s %-21s %-22s %-5s %s%n", "NODE", "NODEPOOL", "NODECLASS",
                    "REASON", "DRIFTED SINCE", "IMAGE", "WAVE", "NOTE"));
            for (DriftPlan.Row row : r.drifted()) {
                b.append(String.format("%-28s %-14s %-14s %-22s %-21s %-22s %-5s %s%n", row.node(), row.nodePool(),
                        row.nodeClass() == null ? "-" : row.nodeClass(), row.reason(), row.driftedAt(),
                        row.image() == null ? "-" : row.image(), row.wave() == 0 ? "-" : String.valueOf(row.wave()),
                        (row.empty() ? "empty; " : "") + (row.ready() ? "" : "NotReady; ")
                                + (row.verdict() == null ? "" : row.verdict())).stripTrailing()).append('\n');
            }
        }
        if (!r.rollouts().isEmpty()) {
            b.append("\nAMI rollouts:\n");
            r.rollouts().forEach((nc, ro) -> b.append("  EC2NodeClass ").append(nc).append(": ").append(ro.phase())
                    .append(", ").append(ro.why()).append('\n'));
        }
        if (!r.waves().isEmpty()) {
            b.append("\nReplacement waves (empty nodes first, then oldest drifted; each node's replacement launches and "
                    + "initializes before it drains):\n");
            for (DriftPlan.Wave w : r.waves()) {
                b.append("  wave ").append(w.number()).append(": ").append(String.join(", ", w.nodes())).append("\n    ")
                        .append(w.why()).append('\n');
            }
        }
        r.next().ifPresentOrElse(cmd -> b.append("\nNext command: ").append(describe(cmd)).append('\n'),
                () -> b.append(r.drifted().isEmpty() ? "" : "\nNo drift command can start now (see NOTE).\n"));
        b.append("\nNotes:\n");
        r.notes().forEach(n -> b.append("  - ").append(n).append('\n'));
        return b.toString();
    }

    static String json(DriftPlan.Result r) throws Exception {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("decidedAt", r.at().toString());
        doc.put("managedNodes", r.managed());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (DriftPlan.Row row : r.drifted()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("node", row.node());
            m.put("nodeClaim", row.claim());
            m.put("nodePool", row.nodePool());
            m.put("nodeClass", row.nodeClass());
            m.put("reason", row.reason());
            m.put("driftedSince", row.driftedAt().toString());
            m.put("image", row.image());
            m.put("empty", row.empty());
            m.put("ready", row.ready());
            m.put("wave", row.wave() == 0 ? null : row.wave());
            m.put("note", row.verdict());
            rows.add(m);
        }
        doc.put("drifted", rows);
        List<Map<String, Object>> rollouts = new ArrayList<>();
        r.rollouts().forEach((nc, ro) -> rollouts.add(rollout(ro)));
        doc.put("amiRollouts", rollouts);
        List<Map<String, Object>> waves = new ArrayList<>();
        r.waves().forEach(w -> waves.add(new LinkedHashMap<>(Map.of("wave", w.number(), "nodes", w.nodes(), "why", w.why()))));
        doc.put("waves", waves);
        doc.put("next", r.next().map(cmd -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("replace", cmd.nodes());
            m.put("launch", cmd.replacements().stream().map(p -> p.instanceType().name()).toList());
            return m;
        }).orElse(null));
        doc.put("notes", r.notes());
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc) + "\n";
    }

    private static Map<String, Object> rollout(AmiRollout ro) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nodeClass", ro.nodeClass());
        m.put("phase", ro.phase().name());
        m.put("target", ro.target());
        m.put("canaries", ro.canaries());
        m.put("exposed", ro.exposed());
        m.put("why", ro.why());
        return m;
    }

    private static String describe(ConsolidationCommand cmd) {
        return "replace " + String.join(", ", cmd.nodes()) + (cmd.replacements().isEmpty() ? " (its pods fit on other nodes)"
                : ", launching " + cmd.replacements().stream().map(p -> p.instanceType().name()).toList());
    }
}
