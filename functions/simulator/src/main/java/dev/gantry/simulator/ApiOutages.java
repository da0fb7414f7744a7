package dev.gantry.simulator;

import java.time.Duration;
import java.time.Instant;

/** The fault plan's API-server outages of a {@link Simulation}. */
final class ApiOutages {
    private ApiOutages() {
    }

    /**
     * The fault plan's API-server outages, at seeded instants between a tenth and four fifths of the run (counted from
     * the scenario's {@code start}, not the default one: a run that starts later would have them before it began).
     */
    static void schedule(Simulation s, Instant end) {
        var r = s.faults.stream("apiOutage");
        long span = Duration.between(s.start, end).toSeconds();
        for (int i = 0; i < s.faults.plan().kubeApi().outages(); i++) {
            Instant at = s.start.plus(Duration.ofSeconds(span / 10 + r.nextLong(Math.max(1, span * 7 / 10))));
            Duration lasting = s.faults.plan().kubeApi().outageFor().isZero() ? Duration.ofMinutes(2) : s.faults.plan().kubeApi().outageFor();
            s.loop.at(at, "api outage", () -> {
                s.api.downUntil(at.plus(lasting));
                s.faults.count("apiOutage");
                s.recorder.log(at, "fault", "API server down for " + lasting.toSeconds() + " s");
            });
        }
    }
}
