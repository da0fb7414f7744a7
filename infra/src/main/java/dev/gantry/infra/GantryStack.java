package dev.gantry.infra;

import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.constructs.Construct;

/**
 * The deployable unit: one {@link GantryAutoscaler} per stack, so one stack per cluster. Its outputs
 * {@value #TABLE_OUTPUT} and {@value #CLUSTER_OUTPUT} are what {@code gantry status} reads to find the state table and
 * the cluster from the stack's name alone; {@value #NODE_ROLE_OUTPUT} is the role a new EC2NodeClass's
 * {@code spec.role} names to run as the stack's own node role.
 */
public final class GantryStack extends Stack {
    public static final String TABLE_OUTPUT = "TableName";
    public static final String CLUSTER_OUTPUT = "ClusterName";
    public static final String NODE_ROLE_OUTPUT = "NodeRoleName";

    private final GantryAutoscaler autoscaler;

    public GantryStack(Construct scope, String id, StackProps stackProps, GantryAutoscalerProps props) {
        super(scope, id, stackProps);
        autoscaler = new GantryAutoscaler(this, "Gantry", props);
        CfnOutput.Builder.create(this, TABLE_OUTPUT).value(autoscaler.table().getTableName())
                .description("Gantry's state table (gantry status reads it)").build();
        CfnOutput.Builder.create(this, CLUSTER_OUTPUT).value(props.clusterName())
                .description("The EKS cluster this stack autoscales").build();
        CfnOutput.Builder.create(this, NODE_ROLE_OUTPUT).value(autoscaler.nodeRole().getRoleName())
                .description("Gantry's node role: name it in an EC2NodeClass's spec.role").build();
    }

    public GantryAutoscaler autoscaler() {
        return autoscaler;
    }

    /** {@code Gantry-<cluster>}: one stack per cluster, and the name says which. */
    public static String nameFor(String clusterName) {
        return "Gantry-" + clusterName;
    }
}
