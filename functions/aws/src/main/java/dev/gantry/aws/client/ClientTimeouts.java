package dev.gantry.aws.client;

import dev.gantry.config.deployment.CallTimeouts;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * A {@link CallTimeouts.Budget} as an AWS SDK client takes it: the URL-connection client's connect and socket
 * timeouts, and the override configuration's attempt and call timeouts in the SDK's standard retry mode (pinned: the
 * SDK's own default is the legacy mode unless AWS_RETRY_MODE or the profile say otherwise; standard is what the
 * simulator models, and it retries an attempt that timed out). Every production client of the lifecycle functions is
 * built with one, so an endpoint that stops answering costs an attempt, not the invocation.
 */
public final class ClientTimeouts {
    private ClientTimeouts() {
    }

    /** The HTTP client: connect within {@code connect}, and give up a read silent for {@code attempt}. */
    public static SdkHttpClient http(CallTimeouts.Budget b) {
        return UrlConnectionHttpClient.builder().connectionTimeout(b.connect()).socketTimeout(b.attempt()).build();
    }

    /**
     * Attempt and call timeouts, in the standard retry mode (its 3 attempts in all).
     *
     * @throws IllegalArgumentException when the budget asks for another number of attempts
     */
    public static ClientOverrideConfiguration override(CallTimeouts.Budget b) {
        if (b.attempts() != CallTimeouts.SDK_ATTEMPTS) {
            throw new IllegalArgumentException("the SDK's standard mode makes " + CallTimeouts.SDK_ATTEMPTS
                    + " attempts, the budget asks for " + b.attempts());
        }
        return ClientOverrideConfiguration.builder().apiCallAttemptTimeout(b.attempt()).apiCallTimeout(b.call())
                .retryStrategy(RetryMode.STANDARD).build();
    }
}
