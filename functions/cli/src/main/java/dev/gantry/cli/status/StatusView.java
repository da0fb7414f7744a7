package dev.gantry.cli.status;

import dev.gantry.core.disruption.execution.BackOffs;
import dev.gantry.core.status.PoolCost;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.gantry.core.headroom.BufferExpansion;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Renders a {@link StatusReport} as the table people read or the JSON document scripts read. */
public final class StatusView {
    static final int BAR = 20;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private StatusView() {
    }

    public static String table(StatusReport r) {
        StringBuilder b = new StringBuilder("Gantry status at ").append(r.at()).append("\n\n");
        b.append("NODEPOOLS (node capacity counted against each pool's limits)\n");
        if (r.pools().isEmpty()) {
            b.append("  (none)\n");
        }
        for (StatusReport.PoolStatus p : r.pools()) {
            b.append("  ").append(p.name()).append(": ").append(count(p.nodes(), "node")).append(", ")
                    .append(count(p.runningPods(), "pod")).append(" running")
                    .append(p.usageAt() == null ? "" : ", as the provisioner counted " + ago(p.usageAt(), r.at())).append('\n');
            for (StatusReport.Usage u : p.usage()) {
                b.append(String.format("    %-8s %s%n", u.resource(), usage(u)));
            }
            b.append(String.format("    %-8s %s%n", "cost", cost(p.cost())));
            for (BackOffs.Held h : p.backoffs()) {
                b.append(String.format("    %-8s %s until %s (%s more): its last replacement failed%n", "held", h.what(), h.until(),
                        duration(Duration.between(r.at(), h.until()))));
            }
        }
        b.append("\nNODECLAIMS\n");
        if (r.claims().isEmpty()) {
            b.append("  (none)\n");
        }
        for (StatusReport.ClaimGroup g : r.claims()) {
            b.append(String.format("  %-12s %4d   oldest nodeclaim/%s (%s)%n", g.state(), g.count(), g.oldest(), duration(g.oldestAge())));
        }
        b.append("\nPENDING PODS (").append(r.pending().size()).append(")\n");
        for (StatusReport.PendingPod p : r.pending()) {
            b.append(String.format("  %-32s %7s  %s%n", p.pod(), duration(p.waiting()), p.reason()));
        }
        b.append("\nDECISIONS (last ").append(StatusReport.DECISIONS).append(")\n");
        if (r.decisions().isEmpty()) {
            b.append("  (none)\n");
        }
        for (StatusReport.Decision d : r.decisions()) {
            b.append(String.format("  %-20s %-12s %-36s %s%n", d.at(), d.kind(), d.object(), d.reason()));
        }
        b.append("\nBUFFERS\n");
        if (r.buffers().isEmpty()) {
            b.append("  (none)\n");
        }
        for (BufferExpansion e : r.buffers()) {
            b.append(String.format("  %-28s %-10s %s%n", e.buffer().key(), e.state().name().toLowerCase(java.util.Locale.ROOT),
                    e.reason()));
        }
        return b.toString();
    }

    /** {@code $0.1920/h (on-demand $0.0960, spot $0.0960)}: the pool's $/h now at list price, split by capacity type. */
    static String cost(PoolCost c) {
        StringBuilder b = new StringBuilder("$").append(PoolCost.format(c.perHour())).append("/h");
        if (!c.byCapacityType().isEmpty()) {
            StringBuilder parts = new StringBuilder();
            c.byCapacityType().forEach((type, perHour) -> parts.append(parts.isEmpty() ? "" : ", ").append(type).append(" $")
                    .append(PoolCost.format(perHour)));
            b.append(" (").append(parts).append(')');
        }
        return b.toString();
    }

    public static String json(StatusReport r) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("at", r.at().toString());
        List<Object> pools = new ArrayList<>();
        for (StatusReport.PoolStatus p : r.pools()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", p.name());
            m.put("nodes", p.nodes());
            m.put("runningPods", p.runningPods());
            Map<String, Object> usage = new LinkedHashMap<>();
            for (StatusReport.Usage u : p.usage()) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("used", u.used());
                x.put("limit", u.limit());
                usage.put(u.resource(), x);
            }
            m.put("usage", usage);
            m.put("usageRecordedAt", p.usageAt() == null ? null : p.usageAt().toString());
            Map<String, Object> cost = new LinkedHashMap<>();
            cost.put("perHour", p.cost().perHour());
            cost.put("byCapacityType", p.cost().byCapacityType());
            m.put("cost", cost);
            List<Object> held = new ArrayList<>();
            p.backoffs().forEach(h -> held.add(ordered("what", h.what(), "until", h.until().toString())));
            m.put("backoffs", held);
            pools.add(m);
        }
        doc.put("nodePools", pools);
        List<Object> claims = new ArrayList<>();
        r.claims().forEach(g -> claims.add(ordered("state", g.state().name(), "count", g.count(), "oldest", g.oldest(),
                "oldestAgeSeconds", g.oldestAge().toSeconds())));
        doc.put("nodeClaims", claims);
        List<Object> pending = new ArrayList<>();
        r.pending().forEach(p -> pending.add(ordered("pod", p.pod(), "waitingSeconds", p.waiting().toSeconds(),
                "reason", p.reason(), "source", p.source())));
        doc.put("pendingPods", pending);
        List<Object> decisions = new ArrayList<>();
        r.decisions().forEach(d -> decisions.add(ordered("at", d.at().toString(), "kind", d.kind(), "object", d.object(),
                "reason", d.reason())));
        doc.put("decisions", decisions);
        List<Object> buffers = new ArrayList<>();
        for (BufferExpansion e : r.buffers()) {
            Map<String, Object> m = ordered("buffer", e.buffer().key(), "state", e.state().name(), "chunks", e.chunks(),
                    "wanted", e.wanted(), "cpuMillis", e.total().cpuMillis(), "memoryBytes", e.total().memoryBytes());
            m.put("nextOpening", e.nextOpening() == null ? null : e.nextOpening().toString());
            m.put("reason", e.reason());
            buffers.add(m);
        }
        doc.put("buffers", buffers);
        try {
            return JSON.writeValueAsString(doc) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Object> ordered(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    /** Memory in Gi (one decimal when not whole), anything else as {@link Resources#format} writes it. */
    static String amount(String resource, long v) {
        if ((resource.equals(Resources.MEMORY) || resource.equals(Resources.EPHEMERAL_STORAGE)) && v % (1L << 30) != 0) {
            return String.format(java.util.Locale.ROOT, "%.1fGi", v / (double) (1L << 30));
        }
        return Resources.format(resource, v);
    }

    static String usage(StatusReport.Usage u) {
        String used = amount(u.resource(), u.used());
        if (u.limit() == null) {
            return String.format("%-14s (no limit)", used);
        }
        String text = used + "/" + amount(u.resource(), u.limit());
        int pct = u.limit() == 0 ? (u.used() == 0 ? 0 : 100) : (int) Math.min(999, Math.round(100.0 * u.used() / u.limit()));
        int filled = Math.min(BAR, (int) Math.round(BAR * Math.min(1.0, pct / 100.0)));
        return String.format("%-14s [%s%s] %d%%", text, "#".repeat(filled), "-".repeat(BAR - filled), pct);
    }

    /** {@code 2h10m}, {@code 3m5s}, {@code 45s}. */
    static String duration(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s >= 86400) {
            return s / 86400 + "d" + (s % 86400) / 3600 + "h";
        }
        if (s >= 3600) {
            return s / 3600 + "h" + (s % 3600) / 60 + "m";
        }
        if (s >= 60) {
            return s / 60 + "m" + s % 60 + "s";
        }
        return s + "s";
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static String ago(Instant t, Instant now) {
        return duration(Duration.between(t, now)) + " ago";
    }
}
