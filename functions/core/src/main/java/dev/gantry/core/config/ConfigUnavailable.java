package dev.gantry.core.config;

/**
 * No configuration can be used for this run: the cluster's configuration could not be read and no earlier reading is
 * recent enough to stand in for it. The run must fail (and be retried) rather than go on with no NodePools, which
 * would mean no provisioning, or disruption decided on assumptions nobody checked.
 */
public final class ConfigUnavailable extends RuntimeException {
    public ConfigUnavailable(String message, Throwable cause) {
        super(message, cause);
    }
}
