package dev.gantry.core.disruption.execution;

import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.disruption.consolidation.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Karpenter's {@code Unconsolidatable} and {@code DisruptionBlocked} node events, without the spam: a node's event is
 * recorded when its message changes, or again after {@code every} (Karpenter's recorder deduplicates the same way).
 * What was recorded is remembered per function instance only, so a cold start may repeat an event once. At most
 * {@link #MAX_PER_RUN} are recorded per sweep, those never recorded or recorded longest ago first: each is an API
 * call (20-50 ms), and a 1,000-node cluster whose verdicts changed made a sweep record 870 of them, 30 s of its 50 s
 * timeout (the simulator's scale storm); the rest wait for the next sweep.
 */
final class NodeEvents {
    private static final int MAX_REMEMBERED = 10_000;
    /** Events recorded per sweep at most. */
    static final int MAX_PER_RUN = 100;

    private final ClusterWriter writer;
    private final Duration every;
    private final Map<String, Map.Entry<String, Instant>> last = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Map.Entry<String, Instant>> eldest) {
            return size() > MAX_REMEMBERED;
        }
    };

    NodeEvents(ClusterWriter writer, Duration every) {
        this.writer = writer;
        this.every = every;
    }

    /** Records the verdicts' events that are new or due again, at most {@link #MAX_PER_RUN}; returns how many. */
    synchronized int record(List<Verdict> verdicts, Instant now) {
        Map<String, Boolean> seen = new HashMap<>();
        List<Verdict> due = new java.util.ArrayList<>();
        for (Verdict v : verdicts) {
            if (seen.put(v.node(), true) != null) {
                continue;
            }
            String message = v.kind() + ": " + v.reason();
            Map.Entry<String, Instant> before = last.get(v.node());
            if (before != null && before.getKey().equals(message) && now.isBefore(before.getValue().plus(every))) {
                continue;
            }
            due.add(v);
        }
        // Never recorded first, then the longest ago; a stable sort keeps the verdicts' order among equals.
        due.sort(java.util.Comparator.comparing((Verdict v) -> {
            Map.Entry<String, Instant> before = last.get(v.node());
            return before == null ? Instant.MIN : before.getValue();
        }));
        int n = 0;
        for (Verdict v : due.subList(0, Math.min(MAX_PER_RUN, due.size()))) {
            last.put(v.node(), Map.entry(v.kind() + ": " + v.reason(), now));
            writer.event("Node", null, v.node(), "Normal", v.kind().name(), v.reason());
            n++;
        }
        return n;
    }
}
