package dev.gantry.config.codec;

/** A message body that is not what its queue carries. The record is reported failed; the message never echoes input. */
public final class MalformedMessage extends RuntimeException {
    public MalformedMessage(String message, Throwable cause) {
        super(message, cause);
    }
}
