package dev.gantry.simulator;

import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.provisioning.AdmissionRequest;
import dev.gantry.core.provisioning.WebhookDecision;
import java.time.Clock;

/**
 * The pending-pod webhook as the API server calls it: each admission request the simulated cluster makes (pod
 * created, pod status set Unschedulable, node created or deleted) goes through the real {@link WebhookDecision}, and a
 * hint goes on the provisioning queue when it says so. Switched off when the scenario says {@code webhook: false},
 * leaving the sweep's backstop as the only way pending pods are noticed.
 */
final class Webhook {
    private final boolean enabled;
    private final HintMessages hints;
    private final Clock clock;
    private long requests;
    private long hintsSent;

    Webhook(boolean enabled, HintMessages hints, Clock clock) {
        this.enabled = enabled;
        this.hints = hints;
        this.clock = clock;
    }

    void podCreated(Pod p) {
        admit(new AdmissionRequest("", "Pod", "", "CREATE", p.namespace(), p.name(), p.uid(), nullToEmpty(p.nodeName()), false, false));
    }

    void podUnschedulable(Pod p) {
        admit(new AdmissionRequest("", "Pod", "status", "UPDATE", p.namespace(), p.name(), p.uid(), "", false, true));
    }

    void nodeCreated(Node n) {
        admit(new AdmissionRequest("", "Node", "", "CREATE", "", n.name(), "node/" + n.name(), "", false, false));
    }

    void nodeDeleted(Node n) {
        admit(new AdmissionRequest("", "Node", "", "DELETE", "", n.name(), "node/" + n.name(), "", false, false));
    }

    private void admit(AdmissionRequest r) {
        if (!enabled) {
            return;
        }
        requests++;
        WebhookDecision.decide(r, clock.instant()).ifPresent(h -> {
            hints.send(h);
            hintsSent++;
        });
    }

    long requests() {
        return requests;
    }

    long hintsSent() {
        return hintsSent;
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
