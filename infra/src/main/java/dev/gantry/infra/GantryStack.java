package dev.gantry.infra;

import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.constructs.Construct;

/** The deployable unit: one {@link GantryAutoscaler} per stack, so one stack per cluster. */
public final class GantryStack extends Stack {
    private final GantryAutoscaler autoscaler;

    public GantryStack(Construct scope, String id, StackProps stackProps, GantryAutoscalerProps props) {
        super(scope, id, stackProps);
        autoscaler = new GantryAutoscaler(this, "Gantry", props);
    }

    public GantryAutoscaler autoscaler() {
        return autoscaler;
    }

    /** {@code Gantry-<cluster>}: one stack per cluster, and the name says which. */
    public static String nameFor(String clusterName) {
        return "Gantry-" + clusterName;
    }
}
