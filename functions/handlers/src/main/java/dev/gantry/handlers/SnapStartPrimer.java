package dev.gantry.handlers;

/**
 * A handler's SnapStart hooks, separate from the handler so tests can drive them directly.
 * {@link #beforeCheckpoint()} warms hot paths with no side effects (nothing is written, sent or launched);
 * {@link #afterRestore()} refreshes whatever must not be shared between restored copies (tokens, random seeds).
 */
public interface SnapStartPrimer {
    void beforeCheckpoint();

    default void afterRestore() {
    }

    SnapStartPrimer NONE = () -> { };
}
