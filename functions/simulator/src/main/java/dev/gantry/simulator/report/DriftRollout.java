package dev.gantry.simulator.report;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.simulator.observe.Recorder;
import java.util.List;
import java.util.Optional;

/**
 * A drift rollout as the summary's {@code drift} section tells it, from the recorder's timeline and samples: when the
 * first AMI release came, how many nodes were terminated as drifted and when the last went (the rollout's length), and
 * the most pods pending at once from the release to the end. Present only in a run with an AMI release.
 */
final class DriftRollout {
    private DriftRollout() {
    }

    static Optional<ObjectNode> of(Recorder r) {
        List<Recorder.Entry> timeline = r.timeline();
        Optional<Long> release = timeline.stream().filter(e -> e.kind().equals("scenario") && e.text().startsWith("AMI release"))
                .map(Recorder.Entry::t).findFirst();
        if (release.isEmpty()) {
            return Optional.empty();
        }
        long from = release.get();
        List<Long> drifted = timeline.stream().filter(e -> e.kind().equals("terminate") && e.text().contains("(drifted"))
                .map(Recorder.Entry::t).toList();
        int maxPending = r.samples().stream().filter(s -> s.t() >= from).mapToInt(Recorder.Sample::pending).max().orElse(0);
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("releaseAtSeconds", from);
        o.put("driftedTerminated", drifted.size());
        o.put("rolloutSeconds", drifted.isEmpty() ? 0 : drifted.getLast() - from);
        o.put("maxPendingPodsDuringRollout", maxPending);
        return Optional.of(o);
    }
}
