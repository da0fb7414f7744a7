package dev.gantry.simulator.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.simulator.observe.Recorder;
import dev.gantry.simulator.observe.SpotSplitDrift;
import java.util.Locale;
import java.util.Optional;

/**
 * The summary's {@code cost.spotSplit} section (issue #29 §4), present when a pool has a spot/on-demand split: per
 * pool, its target, the largest deviation of its spot share (points, signed), the time-weighted mean absolute
 * deviation, the seconds outside one node's worth of the target, and the share at the end ({@link SpotSplitDrift}).
 */
final class SpotSplitFigures {
    private SpotSplitFigures() {
    }

    static Optional<ObjectNode> of(Recorder r) {
        if (r.spotSplitDrift().pools().isEmpty()) {
            return Optional.empty();
        }
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        r.spotSplitDrift().pools().forEach((name, p) -> {
            ObjectNode n = o.putObject(name);
            n.put("targetPercent", p.target());
            n.put("maxDeviationPoints", round(p.maxDeviationPoints()));
            n.put("meanAbsDeviationPoints", round(p.meanAbsDeviationPoints()));
            n.put("secondsOutsideOneNode", Math.round(p.secondsOutsideOneNode()));
            n.put("secondsMeasured", Math.round(p.secondsMeasured()));
            if (!Double.isNaN(p.shareAtEnd())) {
                n.put("sharePercentAtEnd", round(p.shareAtEnd()));
            }
        });
        return Optional.of(o);
    }

    /** The terminal row: one clause per pool. */
    static String line(JsonNode split) {
        StringBuilder b = new StringBuilder();
        split.properties().forEach(e -> {
            JsonNode p = e.getValue();
            b.append(b.isEmpty() ? "" : "; ").append(String.format(Locale.ROOT,
                    "%s %d%% spot: max %+.1f pts, mean |%.1f| pts, %d of %d s outside one node, %s at end", e.getKey(),
                    p.get("targetPercent").asInt(), p.get("maxDeviationPoints").asDouble(),
                    p.get("meanAbsDeviationPoints").asDouble(), p.get("secondsOutsideOneNode").asLong(),
                    p.get("secondsMeasured").asLong(), p.has("sharePercentAtEnd")
                            ? String.format(Locale.ROOT, "%.1f%%", p.get("sharePercentAtEnd").asDouble()) : "empty"));
        });
        return b.toString();
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
