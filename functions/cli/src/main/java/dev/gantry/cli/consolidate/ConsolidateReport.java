package dev.gantry.cli.consolidate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.gantry.core.disruption.consolidation.Consolidation;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand;
import dev.gantry.core.disruption.consolidation.Verdict;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code gantry consolidate}'s output: the one decision (what goes, as what type and capacity type, what replaces it,
 * $/h, why every other node stays), or a run to where consolidation settles (each step, the end state, the bounds),
 * or two such runs side by side. As a table for people or as JSON.
 */
final class ConsolidateReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** Nodes that stay for the same reason are listed one per line up to this many, then counted. */
    private static final int LISTED = 5;
    static final String NEXT = "`gantry consolidate --until-settled` shows what happens next";

    private ConsolidateReport() {
    }

    // ---------------------------------------------------------------- one decision

    static String table(WhatIf.Decided d) {
        StringBuilder b = new StringBuilder();
        var view = d.cluster().view();
        b.append(String.format("Cluster: %,d nodes, %,d pods, decided as of %s%n", view.nodes().size(), view.pods().size(), d.cluster().now()));
        double before = d.price();
        double after = before - d.decision().command().map(ConsolidationCommand::savings).orElse(0.0);
        if (d.decision().command().isEmpty()) {
            b.append("No consolidation: every node stays.\n");
        } else {
            ConsolidationCommand c = d.decision().command().get();
            b.append(String.format("Consolidation (%s, %s, reason %s): remove %d node(s), launch %d%n", c.decidedBy(),
                    c.method(), c.reason(), c.nodes().size(), c.replacements().size()));
            Map<String, Node> nodes = new LinkedHashMap<>();
            view.nodes().forEach(n -> nodes.put(n.name(), n));
            for (String n : c.nodes()) {
                Node node = nodes.get(n);
                b.append(String.format("  remove  %-40s %-34s $%.4f/h%n", n, node == null ? "" : Prices.describe(node),
                        node == null ? 0 : Prices.of(node, d.pools())));
            }
            for (NodeClaimPlan r : c.replacements()) {
                b.append(String.format("  launch  %-40s %s %s %s $%.4f/h (%d options, %d pods)%n", r.name(), r.instanceType().name(),
                        r.offering().capacityType(), r.offering().zone(), r.pricePerHour(), r.instanceTypeOptions().size(), r.pods().size()));
            }
            b.append(String.format("  pods moved: %d%n", c.podsMoved()));
        }
        b.append(String.format("$/h before %.4f, after %.4f (saves %.4f)%n", before, after, before - after));
        if (!d.decision().verdicts().isEmpty()) {
            b.append("Nodes that stay:\n");
            verdicts(d.decision().verdicts(), b);
        }
        b.append(String.format("decided in %d ms%n", d.millis()));
        return b.toString();
    }

    /** One line per node; a reason shared by more than {@link #LISTED} nodes as one line with the count. */
    private static void verdicts(List<Verdict> verdicts, StringBuilder b) {
        Map<String, List<String>> byReason = new LinkedHashMap<>();
        for (Verdict v : verdicts) {
            byReason.computeIfAbsent(v.kind() + ": " + v.reason(), k -> new ArrayList<>()).add(v.node());
        }
        boolean waiting = false;
        for (var e : byReason.entrySet()) {
            waiting |= e.getKey().contains(Consolidation.WAITS);
            if (e.getValue().size() <= LISTED) {
                e.getValue().forEach(n -> b.append(String.format("  %-40s %s%n", n, e.getKey())));
            } else {
                b.append(String.format("  %,d nodes (%s, ...) %s%n", e.getValue().size(),
                        String.join(", ", e.getValue().subList(0, 3)), e.getKey()));
            }
        }
        if (waiting) {
            b.append("  (" + NEXT + ")\n");
        }
    }

    static String json(WhatIf.Decided d) throws Exception {
        Map<String, Object> doc = new LinkedHashMap<>();
        double before = d.price();
        doc.put("decidedAt", d.cluster().now().toString());
        doc.put("pricePerHourBefore", before);
        doc.put("pricePerHourAfter", before - d.decision().command().map(ConsolidationCommand::savings).orElse(0.0));
        doc.put("command", d.decision().command().map(c -> command(c, d.cluster().view().nodes(), d)).orElse(null));
        doc.put("stay", d.decision().verdicts().stream().map(v -> Map.of("node", v.node(), "kind", v.kind().name(), "reason", v.reason())).toList());
        doc.put("decisionMillis", d.millis());
        return JSON.writeValueAsString(doc) + "\n";
    }

    private static Map<String, Object> command(ConsolidationCommand c, List<Node> nodes, WhatIf.Decided d) {
        Map<String, Node> byName = new LinkedHashMap<>();
        nodes.forEach(n -> byName.put(n.name(), n));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("decidedBy", c.decidedBy());
        m.put("method", c.method().name());
        m.put("reason", c.reason().name());
        m.put("remove", c.nodes().stream().map(n -> {
            Node node = byName.get(n);
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("node", n);
            x.put("instanceType", node == null ? null : node.labels().get(dev.gantry.core.requirements.WellKnownLabels.INSTANCE_TYPE));
            x.put("capacityType", node == null ? null : node.labels().get(dev.gantry.core.requirements.WellKnownLabels.CAPACITY_TYPE));
            x.put("zone", node == null ? null : node.labels().get(dev.gantry.core.requirements.WellKnownLabels.ZONE));
            x.put("pricePerHour", node == null ? 0 : Prices.of(node, d.pools()));
            return x;
        }).toList());
        m.put("launch", c.replacements().stream().map(r -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("name", r.name());
            x.put("instanceType", r.instanceType().name());
            x.put("capacityType", r.offering().capacityType());
            x.put("zone", r.offering().zone());
            x.put("pricePerHour", r.pricePerHour());
            x.put("instanceTypeOptions", r.instanceTypeOptions().stream().map(t -> t.name()).toList());
            x.put("pods", r.pods().stream().map(Pod::key).toList());
            return x;
        }).toList());
        m.put("destinations", c.destinations());
        m.put("savingsPerHour", c.savings());
        return m;
    }

    // ---------------------------------------------------------------- runs to the fixed point

    static String table(List<WhatIf.Settled> runs) {
        StringBuilder b = new StringBuilder();
        for (WhatIf.Settled r : runs) {
            b.append(String.format("%s: %d step%s%n", r.strategy(), r.steps().size(), r.steps().size() == 1 ? "" : "s"));
            for (WhatIf.AppliedCommand s : r.steps()) {
                ConsolidationCommand c = s.command();
                List<String> removed = new ArrayList<>();
                s.removed().forEach((n, what) -> removed.add(n + " (" + what + ")"));
                String launched = c.replacements().isEmpty() ? "" : ", launch " + c.replacements().stream()
                        .map(p -> p.instanceType().name() + " " + p.offering().capacityType()).toList();
                b.append(String.format("  %3d  %-11s %2d node%s $/h %.4f -> %.4f: remove %s%s%n", s.number(), c.method(),
                        c.nodes().size(), c.nodes().size() == 1 ? " " : "s", s.before(), s.after(), String.join(", ", removed), launched));
            }
            b.append(String.format("  settled: %,d nodes, $/h %.4f -> %.4f (saves %.1f%%), %,d pods moved%s%n", r.nodes(), r.before(),
                    r.after(), r.before() > 0 ? 100 * (1 - r.after() / r.before()) : 0, r.podsMoved(),
                    r.cutShort() ? " (stopped after " + WhatIf.MAX_STEPS + " steps)" : ""));
            b.append("  nodes by type: ");
            List<String> types = new ArrayList<>();
            r.byType().forEach((t, n) -> types.add(n + " " + t));
            b.append(String.join(", ", types)).append('\n');
            b.append(String.format("  the NodePools' nodes: $%.4f/h; no placement of their pods on the pools' types costs less than "
                    + "$%.4f/h (LP bound) or $%.4f/h (packing bound): %.3fx the packing bound%n", r.bounds().poolNodes(), r.bounds().lp(),
                    r.bounds().packing(), r.bounds().ratio()));
        }
        if (runs.size() == 2) {
            WhatIf.Settled a = runs.get(0);
            WhatIf.Settled k = runs.get(1);
            b.append(String.format("%n%-22s %14s %14s%n", "", a.strategy(), k.strategy()));
            b.append(String.format("%-22s %14d %14d%n", "steps", a.steps().size(), k.steps().size()));
            b.append(String.format("%-22s %,14d %,14d%n", "nodes", a.nodes(), k.nodes()));
            b.append(String.format("%-22s %14.4f %14.4f%n", "$/h settled", a.after(), k.after()));
            b.append(String.format("%-22s %14.3f %14.3f%n", "pools ÷ packing bound", a.bounds().ratio(), k.bounds().ratio()));
            b.append(String.format("%-22s %,14d %,14d%n", "pods moved", a.podsMoved(), k.podsMoved()));
        }
        return b.toString();
    }

    static String json(List<WhatIf.Settled> runs) throws Exception {
        List<Object> out = new ArrayList<>();
        for (WhatIf.Settled r : runs) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("strategy", r.strategy());
            m.put("steps", r.steps().stream().map(s -> {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("step", s.number());
                x.put("at", s.at().toString());
                x.put("method", s.command().method().name());
                x.put("decidedBy", s.command().decidedBy());
                x.put("remove", s.removed());
                x.put("launch", s.command().replacements().stream().map(p -> p.instanceType().name() + " " + p.offering().capacityType()).toList());
                x.put("podsMoved", s.command().podsMoved());
                x.put("pricePerHourBefore", s.before());
                x.put("pricePerHourAfter", s.after());
                x.put("decisionMillis", s.millis());
                return x;
            }).toList());
            Map<String, Object> settled = new LinkedHashMap<>();
            settled.put("nodes", r.nodes());
            settled.put("nodesByType", r.byType());
            settled.put("pricePerHourBefore", r.before());
            settled.put("pricePerHourAfter", r.after());
            settled.put("podsMoved", r.podsMoved());
            settled.put("poolNodesPricePerHour", r.bounds().poolNodes());
            settled.put("lpBoundPerHour", r.bounds().lp());
            settled.put("packingBoundPerHour", r.bounds().packing());
            settled.put("cutShort", r.cutShort());
            m.put("settled", settled);
            out.add(m);
        }
        return JSON.writeValueAsString(runs.size() == 1 ? out.getFirst() : Map.of("runs", out)) + "\n";
    }
}
