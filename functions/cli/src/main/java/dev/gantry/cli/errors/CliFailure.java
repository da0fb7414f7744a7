package dev.gantry.cli.errors;

import java.util.List;

/**
 * Input the command cannot go on with, found below the command itself (a price file that cannot be read, a region the
 * Pricing API refuses, a NodePool zone that does not exist): its lines go to stderr as they are, and the command exits
 * 2, with no stack trace. {@link Gantry#commandLine()} turns it into that exit.
 */
public final class CliFailure extends RuntimeException {
    private final List<String> lines;

    /** One line, which the handler prefixes with {@code gantry <command>: }. */
    public CliFailure(String message) {
        super(message);
        this.lines = null;
    }

    private CliFailure(List<String> lines) {
        super(String.join("\n", lines));
        this.lines = List.copyOf(lines);
    }

    /** Lines already in their final shape ({@code file:line:column: ...}), printed without a prefix. */
    public static CliFailure lines(List<String> lines) {
        return new CliFailure(lines);
    }

    /** The lines to print, each prefixed with {@code prefix} when this failure is a single message. */
    public List<String> render(String prefix) {
        return lines != null ? lines : List.of(prefix + getMessage());
    }
}
