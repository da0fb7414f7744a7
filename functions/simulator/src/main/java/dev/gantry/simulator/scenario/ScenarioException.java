package dev.gantry.simulator.scenario;

/** A scenario that cannot run, pinned to where it says so: prints as {@code file:line: message}. */
public final class ScenarioException extends RuntimeException {
    private final String file;
    private final int line;

    public ScenarioException(String file, int line, String message) {
        super(message);
        this.file = file;
        this.line = line;
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
    }

    @Override
    public String toString() {
        return file + ":" + line + ": " + getMessage();
    }
}
