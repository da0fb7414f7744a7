package dev.gantry.simulator.runtime;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import dev.gantry.config.deployment.FunctionSettings;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The Lambda runtime's context for one simulated invocation: the remaining time runs down from the function's deployed
 * timeout ({@link FunctionSettings#timeout()}) on the virtual clock, from the instant the invocation started.
 */
public final class LambdaContext implements Context {
    /** The simulated AWS account every ARN names. */
    public static final String ACCOUNT = "111122223333";

    private final FunctionSettings function;
    private final String region;
    private final Clock clock;
    private final Instant started;
    private final String requestId;

    public LambdaContext(FunctionSettings function, String region, Clock clock, long invocation) {
        this.function = function;
        this.region = region;
        this.clock = clock;
        this.started = clock.instant();
        this.requestId = "sim-" + function.name() + "-" + invocation;
    }

    @Override
    public int getRemainingTimeInMillis() {
        long left = Duration.between(clock.instant(), started.plus(function.timeout())).toMillis();
        return (int) Math.max(0, left);
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/gantry-" + function.name();
    }

    @Override
    public String getLogStreamName() {
        return "simulated";
    }

    @Override
    public String getFunctionName() {
        return "gantry-" + function.name();
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:" + region + ":" + ACCOUNT + ":function:" + getFunctionName();
    }

    @Override
    public CognitoIdentity getIdentity() {
        return null;
    }

    @Override
    public ClientContext getClientContext() {
        return null;
    }

    @Override
    public int getMemoryLimitInMB() {
        return function.memoryMb();
    }

    @Override
    public LambdaLogger getLogger() {
        return new LambdaLogger() {
            @Override
            public void log(String message) {
                System.out.print(message);
            }

            @Override
            public void log(byte[] message) {
                log(new String(message, StandardCharsets.UTF_8));
            }
        };
    }
}
