package dev.gantry.handlers;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The deployment's settings, read from the process environment in one place (the composition roots use it; nothing
 * else reads the environment). A missing required variable fails the function's initialisation with its name.
 */
public final class Environment {
    public static final String CLUSTER_NAME = "GANTRY_CLUSTER_NAME";
    public static final String TABLE_NAME = "GANTRY_TABLE_NAME";
    public static final String PROVISIONING_QUEUE_URL = "GANTRY_PROVISIONING_QUEUE_URL";
    public static final String INTERRUPTION_QUEUE_URL = "GANTRY_INTERRUPTION_QUEUE_URL";
    public static final String TERMINATION_QUEUE_URL = "GANTRY_TERMINATION_QUEUE_URL";
    public static final String WEBHOOK_SECRET_ARN = "GANTRY_WEBHOOK_SECRET_ARN";
    /** The webhook's Function URL, which the attach step writes (with the token) into the webhook configuration. */
    public static final String WEBHOOK_URL = "GANTRY_WEBHOOK_URL";
    /** Width of the webhook's hint deduplication bucket, whole seconds (the provisioning queue's delivery delay). */
    public static final String HINT_BUCKET_SECONDS = "GANTRY_HINT_BUCKET_SECONDS";
    /** The sweep alias the attach step invokes with {@code {"finalSweep":true}} on delete. */
    public static final String FINAL_SWEEP_FUNCTION_ARN = "GANTRY_FINAL_SWEEP_FUNCTION_ARN";
    /** The sweep function's timeout, whole seconds: how long one final-sweep invoke may take. */
    public static final String FINAL_SWEEP_TIMEOUT_SECONDS = "GANTRY_FINAL_SWEEP_TIMEOUT_SECONDS";
    /** The stack's own node role, whose instance profile is {@link #INSTANCE_PROFILE_NAME}. */
    public static final String NODE_ROLE_NAME = "GANTRY_NODE_ROLE_NAME";
    public static final String INSTANCE_PROFILE_NAME = "GANTRY_INSTANCE_PROFILE_NAME";
    /** The roles named with {@code -c nodeRoles=}, each with the instance profile made for it: {@code role=profile,...}. */
    public static final String NODE_ROLE_PROFILES = "GANTRY_NODE_ROLE_PROFILES";
    /** The deploy bundle in S3: for the attach step only; the controller functions read their configuration from the cluster. */
    public static final String CONFIG = "GANTRY_CONFIG";
    /** {@code s3://bucket/key} of the deploy bundle, which only the attach step reads and applies to the cluster. */
    public static final String DEPLOY_BUNDLE = "GANTRY_DEPLOY_BUNDLE";
    /**
     * The NodePools Gantry manages, comma-separated ({@code cdk deploy -c nodePools=a,b}); unset: all of them. Set when
     * another autoscaler (Karpenter, EKS Auto Mode) runs in the same cluster on the other NodePools.
     */
    public static final String NODE_POOLS = "GANTRY_NODE_POOLS";
    /** Spot-to-spot consolidation, {@code true} or {@code false} (unset: the deployment default). */
    public static final String SPOT_TO_SPOT_CONSOLIDATION = dev.gantry.config.deployment.ConsolidationVariables.SPOT_TO_SPOT;
    /** The consolidation strategy, {@code gantry} or {@code karpenter} (unset: the deployment default). */
    public static final String CONSOLIDATION_STRATEGY = dev.gantry.config.deployment.ConsolidationVariables.STRATEGY;
    public static final String REGION = "AWS_REGION";

    private final Map<String, String> values;

    private Environment(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    /**
     * The function's own environment. Every Lambda entry point starts here, so this also sets up the process's logging
     * for Lambda's JSON log format ({@link dev.gantry.handlers.logging.JsonLogHandler}, at {@code AWS_LAMBDA_LOG_LEVEL}).
     */
    public static Environment system() {
        dev.gantry.handlers.logging.JsonLogHandler.install(System.getenv("AWS_LAMBDA_LOG_LEVEL"));
        return new Environment(System.getenv());
    }

    /** Explicit values, for tests. */
    public static Environment of(Map<String, String> values) {
        return new Environment(values);
    }

    /** @throws IllegalStateException naming the variable when it is unset or blank */
    public String require(String name) {
        return optional(name).orElseThrow(() -> new IllegalStateException("environment variable " + name + " is not set"));
    }

    /**
     * The consolidation settings the deployment set ({@link dev.gantry.config.deployment.DeploymentSettings#DEFAULT}'s
     * for an unset variable).
     *
     * @throws IllegalStateException naming the variable when its value is not one of its words
     */
    public dev.gantry.core.disruption.consolidation.ConsolidationSettings consolidation() {
        try {
            return dev.gantry.config.deployment.ConsolidationVariables.read(this::optional,
                    dev.gantry.config.deployment.DeploymentSettings.DEFAULT.consolidation());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }

    /** {@link #NODE_POOLS} as a set; empty when unset (Gantry manages every NodePool). */
    public java.util.Set<String> nodePools() {
        return optional(NODE_POOLS).map(v -> java.util.Arrays.stream(v.split(",")).map(String::trim)
                .filter(n -> !n.isEmpty()).collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new)))
                .map(java.util.Collections::unmodifiableSet).orElse(java.util.Set.of());
    }

    /** {@link #INSTANCE_PROFILE_NAME}: the stack's node instance profile, or null when unset. */
    public String instanceProfile() {
        return optional(INSTANCE_PROFILE_NAME).orElse(null);
    }

    /**
     * The node roles the deployment can pass to EC2, by name, each with its instance profile: {@link #NODE_ROLE_NAME}
     * with {@link #INSTANCE_PROFILE_NAME}, and {@link #NODE_ROLE_PROFILES}.
     *
     * @throws IllegalStateException naming the variable when an entry is not {@code role=profile}
     */
    public java.util.Map<String, String> nodeRoleProfiles() {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        optional(NODE_ROLE_NAME).ifPresent(role -> optional(INSTANCE_PROFILE_NAME).ifPresent(p -> out.put(role, p)));
        for (String pair : optional(NODE_ROLE_PROFILES).map(v -> v.split(",")).orElse(new String[0])) {
            String[] kv = pair.trim().split("=", 2);
            if (pair.isBlank()) {
                continue;
            }
            if (kv.length != 2 || kv[0].isBlank() || kv[1].isBlank()) {
                throw new IllegalStateException("environment variable " + NODE_ROLE_PROFILES + ": '" + pair.trim()
                        + "' is not role=instance-profile");
            }
            out.put(kv[0].trim(), kv[1].trim());
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    public Optional<String> optional(String name) {
        String v = values.get(Objects.requireNonNull(name));
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
    }
}
