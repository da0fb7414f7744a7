package dev.gantry.handlers.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The functions' log records as Lambda's JSON log format filters them: one JSON object per line with a level, on the
 * standard error of the moment (Lambda's application log levels: docs.aws.amazon.com/lambda/latest/dg/
 * monitoring-cloudwatchlogs-log-level.html, "your function code must output log events to stdout or stderr as JSON
 * formatted objects that contain a key value pair with the key level").
 */
class JsonLogHandlerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final System.Logger LOG = System.getLogger(JsonLogHandlerTest.class.getName());
    private Handler[] handlers;
    private Level level;
    private PrintStream err;

    @BeforeEach
    void keep() {
        Logger root = LogManager.getLogManager().getLogger("");
        handlers = root.getHandlers();
        level = root.getLevel();
        err = System.err;
    }

    @AfterEach
    void restore() {
        System.setErr(err);
        Logger root = LogManager.getLogManager().getLogger("");
        for (Handler h : root.getHandlers()) {
            root.removeHandler(h);
        }
        for (Handler h : handlers) {
            root.addHandler(h);
        }
        root.setLevel(level);
    }

    /** A warning with its exception: one line, a JSON object Lambda reads as WARN, the trace inside it. */
    @Test
    void aRecordIsOneJsonLineWithItsLevel() throws Exception {
        JsonLogHandler.install(null);
        List<String> lines = captured(() -> LOG.log(System.Logger.Level.WARNING, "nodeclaim objects not synced", new IllegalStateException("gone")));
        assertThat(lines).hasSize(1);
        JsonNode r = JSON.readTree(lines.get(0));
        assertThat(r.path("level").asText()).isEqualTo("WARN");
        assertThat(r.path("logger").asText()).isEqualTo(JsonLogHandlerTest.class.getName());
        assertThat(r.path("message").asText()).isEqualTo("nodeclaim objects not synced");
        assertThat(r.path("stackTrace").asText()).startsWith("java.lang.IllegalStateException: gone");
        assertThat(Instant.parse(r.path("timestamp").asText())).isNotNull();
    }

    /**
     * Standard error swapped between two invocations (as the simulator captures each one's): each record reaches the
     * stream of its own moment. The JDK's console handler keeps the first stream, so the second record went nowhere.
     */
    @Test
    void eachRecordGoesToTheStandardErrorOfItsMoment() throws Exception {
        JsonLogHandler.install(null);
        List<String> first = captured(() -> LOG.log(System.Logger.Level.WARNING, "first"));
        List<String> second = captured(() -> LOG.log(System.Logger.Level.WARNING, "second"));
        assertThat(first).hasSize(1);
        assertThat(second).hasSize(1);
        assertThat(JSON.readTree(second.get(0)).path("message").asText()).isEqualTo("second");
    }

    /** Lambda's application log level ({@code AWS_LAMBDA_LOG_LEVEL}) holds back the records below it; installing again only moves it. */
    @Test
    void theApplicationLogLevelHoldsBackFinerRecords() throws Exception {
        JsonLogHandler.install("WARN");
        assertThat(captured(() -> LOG.log(System.Logger.Level.INFO, "routine"))).isEmpty();
        assertThat(captured(() -> LOG.log(System.Logger.Level.ERROR, "broken"))).hasSize(1);
        JsonLogHandler.install("DEBUG");
        List<String> debug = captured(() -> LOG.log(System.Logger.Level.DEBUG, "detail"));
        assertThat(debug).hasSize(1);
        assertThat(JSON.readTree(debug.get(0)).path("level").asText()).isEqualTo("DEBUG");
        assertThat(LogManager.getLogManager().getLogger("").getHandlers()).hasSize(1);
    }

    /** The simulator's timeline keeps the records {@link JsonLogHandler#warningOrWorse} names, read from the level written. */
    @Test
    void theLevelsItWritesReadBackAsWarningsOrNot() {
        assertThat(JsonLogHandler.warningOrWorse(JsonLogHandler.level(java.util.logging.Level.SEVERE))).isTrue();
        assertThat(JsonLogHandler.warningOrWorse(JsonLogHandler.level(java.util.logging.Level.WARNING))).isTrue();
        assertThat(JsonLogHandler.warningOrWorse(JsonLogHandler.level(java.util.logging.Level.INFO))).isFalse();
        assertThat(JsonLogHandler.warningOrWorse(JsonLogHandler.level(java.util.logging.Level.FINE))).isFalse();
        assertThat(JsonLogHandler.warningOrWorse("FATAL")).isTrue();
        assertThat(JsonLogHandler.warningOrWorse("nonsense")).isFalse();
    }

    private static List<String> captured(Runnable r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream before = System.err;
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            r.run();
        } finally {
            System.setErr(before);
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : text.lines().toList();
    }
}
