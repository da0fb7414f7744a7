package dev.gantry.simulator.runtime;

/**
 * A call none of whose attempts was answered within the client's budget: what the AWS SDK throws as an
 * {@code ApiCallTimeoutException} or {@code ApiCallAttemptTimeoutException} after its last attempt, and fabric8 as a
 * {@code KubernetesClientException} caused by a timeout. Retryable: the handler fails the unit of work, and the queue
 * brings it back.
 */
public final class CallTimedOut extends RuntimeException {
    public CallTimedOut(String message) {
        super(message);
    }
}
