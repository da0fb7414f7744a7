package dev.gantry.core.cloud;

/** A cloud call failed. {@code code} is the provider's error code (e.g. {@code RequestLimitExceeded}). */
public class CloudException extends RuntimeException {
    private final String code;
    private final boolean retryable;

    public CloudException(String code, String message, boolean retryable) {
        super(code + ": " + message);
        this.code = code;
        this.retryable = retryable;
    }

    public String code() {
        return code;
    }

    public boolean retryable() {
        return retryable;
    }
}
