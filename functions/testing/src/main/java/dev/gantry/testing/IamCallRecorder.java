package dev.gantry.testing;

import dev.gantry.testing.iam.IamCall;
import dev.gantry.testing.iam.IamCallLog;
import dev.gantry.testing.iam.IamRequest;
import dev.gantry.testing.iam.TestOrigin;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Records the IAM view of the DynamoDB and SQS calls a client makes to the emulators (dynalite, ElasticMQ), which
 * unlike the {@link AwsStub} are not ours to instrument: add it to a client with
 * {@code overrideConfiguration(c -> c.addExecutionInterceptor(recorder))}. Each signed request becomes an
 * {@link IamCall}: the caller is the SigV4 credential's access key id, the check is the IAM action on the table
 * (or index) or queue ARN in account {@value Ec2State#ACCOUNT}. SQS batch calls are authorized as their single
 * action (SendMessageBatch needs sqs:SendMessage), as SQS documents. Only calls the emulator served are kept: one
 * that failed there (a queue that does not exist, say) fails in AWS too, whatever IAM says. Calls go to
 * {@link IamCallLog} too.
 */
public final class IamCallRecorder implements ExecutionInterceptor {
    private static final Pattern CREDENTIAL = Pattern.compile("Credential=([^/,\\s]+)/[^/]+/([^/]+)/([^/]+)/");
    private static final ExecutionAttribute<IamCall> CALL = new ExecutionAttribute<>("GantryIamCall");
    private final List<IamCall> calls = new CopyOnWriteArrayList<>();
    private final String origin = TestOrigin.current();

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        Matcher m = CREDENTIAL.matcher(context.httpRequest().firstMatchingHeader("Authorization").orElse(""));
        if (!m.find()) {
            return;
        }
        String principal = m.group(1);
        String region = m.group(2);
        String service = m.group(3);
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        String action = service + ":" + switch (operation) {
            case "SendMessageBatch" -> "SendMessage";
            case "DeleteMessageBatch" -> "DeleteMessage";
            case "ChangeMessageVisibilityBatch" -> "ChangeMessageVisibility";
            default -> operation;
        };
        List<IamRequest> checks = new ArrayList<>();
        for (String resource : resources(service, region, context.request())) {
            checks.add(new IamRequest(action, resource, Map.of("aws:RequestedRegion", List.of(region))));
        }
        attributes.putAttribute(CALL, new IamCall(principal, service + ":" + operation, checks, origin));
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        IamCall call = attributes.getAttribute(CALL);
        if (call != null) {
            calls.add(call);
            IamCallLog.append(call);
        }
    }

    /** The calls recorded so far, in order. */
    public List<IamCall> calls() {
        return List.copyOf(calls);
    }

    private static List<String> resources(String service, String region, SdkRequest request) {
        String prefix = "arn:aws:" + service + ":" + region + ":" + Ec2State.ACCOUNT + ":";
        Set<String> out = new LinkedHashSet<>();
        switch (service) {
            case "dynamodb" -> {
                Optional<String> table = request.getValueForField("TableName", String.class);
                Optional<String> index = request.getValueForField("IndexName", String.class);
                table.ifPresent(t -> out.add(prefix + "table/" + t + index.map(i -> "/index/" + i).orElse("")));
                request.getValueForField("RequestItems", Map.class)
                        .ifPresent(items -> items.keySet().forEach(t -> out.add(prefix + "table/" + t)));
            }
            case "sqs" -> {
                request.getValueForField("QueueUrl", String.class)
                        .ifPresent(url -> out.add(prefix + url.substring(url.lastIndexOf('/') + 1)));
                request.getValueForField("QueueName", String.class).ifPresent(name -> out.add(prefix + name));
            }
            default -> { }
        }
        return out.isEmpty() ? List.of("*") : List.copyOf(out);
    }
}
