package dev.gantry.simulator.report;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.simulator.observe.Recorder;
import java.util.List;
import java.util.Optional;

/**
 * A drift rollout as the summary's {@code drift} section tells it, from the recorder's timeline and samples: the change
 * that drifted the nodes, how many nodes were terminated as drifted and when the last went (the rollout's length, counted
 * from that change), the most pods pending at once from the change to the end, and how long the pods created from the
 * change on (the drained nodes' pods' successors among them) waited to be scheduled. The change is the last AMI release,
 * or NodePool or EC2NodeClass applied by a scenario event (not refused), at or before the first claim the sweep marked
 * drifted ({@link #marked}): an earlier change that drifted nothing (a limit, a budget) does not start the clock, and a
 * later release does not restart it. With no mark (the drift step off), the first release, else the first apply.
 * Present in a run with an AMI release, or with a configuration change that drifted a node.
 */
public final class DriftRollout {
    private static final String MARKED = " marked drifted: ";

    private DriftRollout() {
    }

    /** The timeline text (kind {@code drift}) for a claim the sweep newly marked drifted. */
    public static String marked(String claim, String reason) {
        return "nodeclaim/" + claim + MARKED + reason;
    }

    static Optional<ObjectNode> of(Recorder r) {
        List<Recorder.Entry> timeline = r.driftTimeline();
        java.util.function.Predicate<Recorder.Entry> isRelease = e -> e.kind().equals("scenario") && e.text().startsWith("AMI release");
        java.util.function.Predicate<Recorder.Entry> isApply = e -> e.kind().equals("scenario")
                && (e.text().startsWith("apply NodePool/") || e.text().startsWith("apply EC2NodeClass/")) && !e.text().contains("refused");
        Optional<Recorder.Entry> release = timeline.stream().filter(isRelease).findFirst();
        Optional<Long> firstMark = timeline.stream().filter(e -> e.kind().equals("drift") && e.text().contains(MARKED))
                .map(Recorder.Entry::t).findFirst();
        Optional<Recorder.Entry> change = firstMark.flatMap(m -> timeline.stream()
                .filter(e -> e.t() <= m && (isRelease.test(e) || isApply.test(e))).reduce((a, b) -> b));
        if (change.isEmpty()) {
            change = release.or(() -> timeline.stream().filter(isApply).findFirst());
        }
        if (change.isEmpty()) {
            return Optional.empty();
        }
        long from = change.get().t();
        List<Long> drifted = timeline.stream().filter(e -> e.kind().equals("terminate") && e.text().contains("(drifted"))
                .map(Recorder.Entry::t).toList();
        if (release.isEmpty() && drifted.isEmpty()) {
            return Optional.empty();
        }
        int maxPending = r.samples().stream().filter(s -> s.t() >= from).mapToInt(Recorder.Sample::pending).max().orElse(0);
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("cause", change.get().text());
        o.put("releaseAtSeconds", from);
        o.put("driftedTerminated", drifted.size());
        o.put("rolloutSeconds", drifted.isEmpty() ? 0 : drifted.getLast() - from);
        o.put("maxPendingPodsDuringRollout", maxPending);
        List<Double> waits = new java.util.ArrayList<>(r.timeToScheduleFrom(from));
        waits.sort(Double::compare);
        ObjectNode wait = o.putObject("podWaitDuringRolloutSeconds");
        wait.put("p50", pick(waits, 0.50));
        wait.put("p99", pick(waits, 0.99));
        wait.put("max", waits.isEmpty() ? 0 : waits.getLast());
        wait.put("count", waits.size());
        return Optional.of(o);
    }

    /** The summary table's row: how many drifted nodes went, in how long, the most pods pending and their wait. */
    static String line(com.fasterxml.jackson.databind.JsonNode d) {
        com.fasterxml.jackson.databind.JsonNode w = d.get("podWaitDuringRolloutSeconds");
        return d.get("driftedTerminated").asInt() + " drifted nodes replaced in " + d.get("rolloutSeconds").asLong()
                + " s, at most " + d.get("maxPendingPodsDuringRollout").asInt() + " pods pending; pods created since waited p50 "
                + w.get("p50") + " s, p99 " + w.get("p99") + " s, max " + w.get("max") + " s (" + w.get("count") + ")";
    }

    /** The nearest-rank percentile, to a tenth of a second. */
    private static double pick(List<Double> sorted, double q) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int i = (int) Math.ceil(q * sorted.size()) - 1;
        return Math.round(sorted.get(Math.max(0, Math.min(i, sorted.size() - 1))) * 10) / 10.0;
    }
}
