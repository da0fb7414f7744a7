package dev.gantry.config.deployment;

import java.time.Duration;

/**
 * How long the functions' clients wait for a service, per service: the production clients are built with these
 * figures (the AWS SDK's {@code apiCallAttemptTimeout} and {@code apiCallTimeout}, the HTTP client's connect and
 * socket timeouts; fabric8's request timeout and retries), and the simulator ends a call that gets no answer at the
 * same instant and retries it as the client would. Without them a request to an endpoint that stopped answering waits
 * for the URL-connection client's 30 s socket timeout, and the SDK's standard mode makes three such attempts: 90 s,
 * longer than any function's timeout, so one unanswered request was the death of an invocation.
 *
 * <p>The AWS SDK (standard retry mode) retries an attempt that timed out, like a throttle or a 5xx, up to
 * {@code attempts} in all, while the whole call stays inside {@code call} (backoffs included). The figures are sized
 * against the function timeouts in {@link DeploymentSettings} (provisioner 60 s, of which a run uses 42 s; interruption
 * 30 s) and each call kind's normal latency: CreateFleet takes 1-2 s and may take several, so EC2 attempts get 10 s;
 * DynamoDB and SQS answer in milliseconds, so 2 s is already 100 times their usual answer.
 *
 * @param ec2      EC2 (CreateFleet, Describe*, TerminateInstances)
 * @param ssm      SSM (the AMI parameter)
 * @param dynamodb DynamoDB (the claim store, the demand history)
 * @param sqs      SQS (sends and visibility changes)
 * @param kube     the API server, through fabric8: {@code attempt} is its request timeout and {@code attempts} one
 *                 more than its retry limit (it retries a timed-out or 5xx request after a 200 ms backoff)
 * @param control  the calls made once per cold start or in the background (EKS DescribeCluster, the S3 config, the
 *                 Price List API)
 */
public record CallTimeouts(Budget ec2, Budget ssm, Budget dynamodb, Budget sqs, Budget kube, Budget control) {
    /**
     * @param connect  how long to wait for a connection
     * @param attempt  how long one attempt may take, answer included (the HTTP socket timeout is the same)
     * @param call     how long the call may take, every attempt and backoff included
     * @param attempts attempts in all (the SDK's standard mode makes 3)
     */
    public record Budget(Duration connect, Duration attempt, Duration call, int attempts) {
        public Budget {
            if (attempt.compareTo(call) > 0) {
                throw new IllegalArgumentException("an attempt (" + attempt + ") cannot outlast its call (" + call + ")");
            }
            if (attempts < 1) {
                throw new IllegalArgumentException("attempts must be at least 1, got " + attempts);
            }
        }
    }

    /** The SDK's standard retry mode: three attempts. */
    public static final int SDK_ATTEMPTS = 3;

    public static final CallTimeouts DEFAULT = new CallTimeouts(
            new Budget(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(20), SDK_ATTEMPTS),
            new Budget(Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(8), SDK_ATTEMPTS),
            new Budget(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(6), SDK_ATTEMPTS),
            new Budget(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(6), SDK_ATTEMPTS),
            new Budget(Duration.ofSeconds(3), Duration.ofSeconds(10), Duration.ofSeconds(21), 2),
            new Budget(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(30), SDK_ATTEMPTS));
}
