package dev.gantry.simulator.runtime;

/**
 * The invocation is dead: its function timed out or crashed. An {@link Error}, not an exception, because handlers
 * catch {@link Exception} to report a failed batch, and a dead process reports nothing: this unwinds the handler
 * where it stands, and every later port call of the same invocation throws it again.
 */
public final class Killed extends Error {
    public Killed(String why) {
        super(why, null, false, false);
    }
}
