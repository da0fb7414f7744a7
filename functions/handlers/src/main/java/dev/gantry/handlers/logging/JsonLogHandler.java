package dev.gantry.handlers.logging;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Locale;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * The functions' log records (the core's {@link System.Logger}s, backed by java.util.logging) as one JSON object per
 * line on standard error, with {@code timestamp} (RFC 3339), {@code level}, {@code logger}, {@code message} and, when
 * the record carries one, {@code stackTrace}.
 * <p>
 * The functions are deployed with Lambda's JSON log format and an application log level: Lambda filters by level only
 * the lines that are JSON objects with a {@code level} key, and any other line is one INFO event. The JDK's default
 * console handler writes two lines per record (a date and class line, then {@code LEVEL: message}), so each record was
 * two INFO events in CloudWatch Logs, a warning among them, and a stack trace one event per frame. Lambda also sets
 * {@code AWS_LAMBDA_LOG_LEVEL} to the application log level: records below it are not even formatted.
 * <p>
 * Each record goes to the standard error stream of the moment it is published. The JDK's handler keeps the stream of
 * the moment it was created, so where standard error is swapped per invocation (the simulator captures each one's
 * output as Lambda sends it to CloudWatch Logs) every record after the first invocation that logged went to a stream
 * closed since.
 */
public final class JsonLogHandler extends Handler {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Formatter messages = new SimpleFormatter();

    @Override
    public void publish(LogRecord r) {
        if (!isLoggable(r)) {
            return;
        }
        System.err.println(line(r));
    }

    String line(LogRecord r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("timestamp", r.getInstant().toString());
        o.put("level", level(r.getLevel()));
        o.put("logger", r.getLoggerName());
        o.put("message", messages.formatMessage(r));
        if (r.getThrown() != null) {
            StringWriter trace = new StringWriter();
            r.getThrown().printStackTrace(new PrintWriter(trace));
            o.put("stackTrace", trace.toString());
        }
        return o.toString();
    }

    @Override
    public void flush() {
        System.err.flush();
    }

    @Override
    public void close() {
    }

    /** Lambda's application log levels for java.util.logging's. */
    static String level(Level l) {
        int v = l.intValue();
        return v >= Level.SEVERE.intValue() ? "ERROR" : v >= Level.WARNING.intValue() ? "WARN" : v >= Level.INFO.intValue() ? "INFO"
                : v >= Level.FINE.intValue() ? "DEBUG" : "TRACE";
    }

    /** java.util.logging's level for Lambda's application log level ({@code AWS_LAMBDA_LOG_LEVEL}); INFO when unset or unknown. */
    static Level threshold(String lambdaLevel) {
        return switch (lambdaLevel == null ? "" : lambdaLevel.toUpperCase(Locale.ROOT)) {
            case "TRACE" -> Level.FINEST;
            case "DEBUG" -> Level.FINE;
            case "WARN" -> Level.WARNING;
            case "ERROR", "FATAL" -> Level.SEVERE;
            default -> Level.INFO;
        };
    }

    /** Whether a record's {@code level}, as this handler writes it (or Lambda names it), is a warning or worse. */
    public static boolean warningOrWorse(String level) {
        return threshold(level).intValue() >= Level.WARNING.intValue();
    }

    /**
     * Makes this the root logger's only handler, at {@code lambdaLevel}'s threshold ({@code AWS_LAMBDA_LOG_LEVEL}). Once
     * per process is enough; again, it only sets the threshold.
     */
    public static synchronized void install(String lambdaLevel) {
        Logger root = LogManager.getLogManager().getLogger("");
        Level threshold = threshold(lambdaLevel);
        boolean installed = false;
        for (Handler h : root.getHandlers()) {
            if (h instanceof JsonLogHandler) {
                installed = true;
                h.setLevel(threshold);
            } else {
                root.removeHandler(h);
            }
        }
        if (!installed) {
            Handler h = new JsonLogHandler();
            h.setLevel(threshold);
            root.addHandler(h);
        }
        root.setLevel(threshold);
    }
}
