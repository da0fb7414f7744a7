package dev.gantry.cli.status;

import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;
import software.amazon.awssdk.services.cloudformation.model.Output;
import software.amazon.awssdk.services.cloudformation.model.Stack;

/**
 * Finds a deployed Gantry stack's state table and cluster from its CloudFormation outputs
 * ({@value #TABLE_OUTPUT}, {@value #CLUSTER_OUTPUT}); what a flag gives wins over the stack.
 */
public final class StackLocator {
    public static final String TABLE_OUTPUT = "TableName";
    public static final String CLUSTER_OUTPUT = "ClusterName";

    private StackLocator() {
    }

    /** Where status reads from. */
    public record Target(String stack, String table, String cluster) {
    }

    /**
     * @throws StatusException naming the stack when it does not exist or lacks an output no flag replaces
     */
    public static Target locate(CloudFormationClient cf, String stackName, String table, String cluster) {
        Stack stack;
        try {
            stack = cf.describeStacks(b -> b.stackName(stackName)).stacks().stream().findFirst()
                    .orElseThrow(() -> new StatusException("stack " + stackName + " not found"));
        } catch (CloudFormationException e) {
            String msg = e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
            if (msg != null && msg.contains("does not exist")) {
                throw new StatusException("stack " + stackName + " not found in this account and region"
                        + " (pass --stack, or --region; or --table and --cluster without a stack)");
            }
            throw new StatusException("cannot describe stack " + stackName + ": " + msg);
        }
        Map<String, String> outputs = new HashMap<>();
        for (Output o : stack.outputs()) {
            outputs.put(o.outputKey(), o.outputValue());
        }
        String t = table != null ? table : outputs.get(TABLE_OUTPUT);
        String c = cluster != null ? cluster : outputs.get(CLUSTER_OUTPUT);
        if (t == null || c == null) {
            throw new StatusException("stack " + stackName + " has no output " + (t == null ? TABLE_OUTPUT : CLUSTER_OUTPUT)
                    + " (pass " + (t == null ? "--table" : "--cluster") + ")");
        }
        return new Target(stackName, t, c);
    }
}
