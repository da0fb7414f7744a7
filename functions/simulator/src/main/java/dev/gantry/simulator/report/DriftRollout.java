package dev.gantry.simulator.report;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.simulator.observe.Recorder;
import java.util.List;
import java.util.Optional;

/**
 * A drift rollout as the summary's {@code drift} section tells it, from the recorder's timeline and samples: when the
 * first change came (an AMI release, or a NodePool or EC2NodeClass applied by a scenario event), how many nodes were
 * terminated as drifted and when the last went (the rollout's length), and the most pods pending at once from the
 * change to the end. Present in a run with an AMI release, or with a configuration change that drifted a node.
 */
final class DriftRollout {
    private DriftRollout() {
    }

    static Optional<ObjectNode> of(Recorder r) {
        List<Recorder.Entry> timeline = r.timeline();
        Optional<Recorder.Entry> release = timeline.stream()
                .filter(e -> e.kind().equals("scenario") && e.text().startsWith("AMI release")).findFirst();
        Optional<Recorder.Entry> change = release.or(() -> timeline.stream().filter(e -> e.kind().equals("scenario")
                && (e.text().startsWith("apply NodePool/") || e.text().startsWith("apply EC2NodeClass/"))
                && !e.text().contains("refused")).findFirst());
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
        return Optional.of(o);
    }
}
