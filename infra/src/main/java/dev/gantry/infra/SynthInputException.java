package dev.gantry.infra;

/**
 * The user's input (context, YAML, build output) cannot be synthesized. The message is complete and meant to be
 * printed as is, one problem per line, with no stack trace: it names what is wrong and what to do.
 */
public final class SynthInputException extends RuntimeException {
    public SynthInputException(String message) {
        super(message, null, false, false);
    }
}
