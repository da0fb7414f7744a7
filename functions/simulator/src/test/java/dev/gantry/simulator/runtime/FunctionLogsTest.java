package dev.gantry.simulator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which lines of an invocation's standard error reach the timeline. */
class FunctionLogsTest {
    /**
     * A JSON record's warning or error, as {@code LEVEL logger: message}; its INFO records stay in the logs (they once
     * showed as errors, two lines each); a line that is not a record (a stack trace printed by hand) stays as it is.
     */
    @Test
    void warningsErrorsAndLinesThatAreNoRecordReachTheTimeline() {
        List<String> err = List.of(
                "{\"timestamp\":\"2026-12-06T15:09:53Z\",\"level\":\"INFO\",\"logger\":\"p.Projector\",\"message\":\"nodeclaim objects: 3 created\"}",
                "{\"timestamp\":\"2026-12-06T15:09:54Z\",\"level\":\"WARN\",\"logger\":\"p.Reader\",\"message\":\"list failed\","
                        + "\"stackTrace\":\"java.io.IOException: refused\\n\\tat p.Reader.list(Reader.java:1)\\n\"}",
                "{\"level\":\"ERROR\",\"logger\":\"p.Sweep\",\"message\":\"broken\"}",
                "java.lang.IllegalStateException: printed by hand",
                "{\"not\":\"a record\"}");
        assertThat(FunctionLogs.problems(err)).containsExactly(
                "WARN p.Reader: list failed (java.io.IOException: refused)",
                "ERROR p.Sweep: broken",
                "java.lang.IllegalStateException: printed by hand",
                "{\"not\":\"a record\"}");
    }
}
