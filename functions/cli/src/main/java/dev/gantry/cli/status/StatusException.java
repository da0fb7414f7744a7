package dev.gantry.cli.status;

/** A problem {@code gantry status} reports as one line with exit 2: no stack, no credentials, no cluster. */
public final class StatusException extends RuntimeException {
    public StatusException(String message) {
        super(message);
    }
}
