package dev.gantry.infra;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.gantry.config.deployment.ConsolidationVariables;
import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import software.amazon.awscdk.RemovalPolicy;

/**
 * Reads the app's CDK context ({@code -c key=value} or cdk.json) into {@link GantryAutoscalerProps}. Keys:
 * {@code clusterName} (required), {@code config} (YAML file or directory, default {@value #DEFAULT_CONFIG}),
 * {@code assetsDir} (default {@value #DEFAULT_ASSETS}), {@code vpcId} with {@code functionSubnetIds}
 * (comma-separated), {@code scheduleRate} (e.g. {@code 1 minute}, {@code 5 minutes}), {@code tableRemoval}
 * ({@code retain} or {@code destroy}), {@code cniPolicy} ({@code true}/{@code false}), {@code tokenRotation} (any
 * text; a new value re-runs the attach step after the webhook token was changed), {@code spotToSpotConsolidation}
 * ({@code true}/{@code false}, default false: Karpenter's SpotToSpotConsolidation feature gate),
 * {@code consolidationStrategy} ({@code gantry} or {@code karpenter}, default gantry), {@code nodePools}
 * (comma-separated: the NodePools Gantry manages beside Karpenter or EKS Auto Mode; unset: all, and attach refuses to
 * run beside either), {@code nodeRoles} (comma-separated names or ARNs of existing IAM roles an EC2NodeClass's
 * {@code spec.role} may name, such as Karpenter's node role; unset: nodes run as the stack's own node role).
 * Relative paths resolve against the directory the app runs in ({@code infra/} under {@code cdk synth}).
 */
public final class AppContext {
    static final String DEFAULT_CONFIG = "../samples/nodepools";
    static final String DEFAULT_ASSETS = "../functions/handlers/target/dist";
    private static final Pattern RATE = Pattern.compile("(\\d+)\\s+(minute|minutes|hour|hours|day|days)");

    private AppContext() {
    }

    /**
     * @param context the context lookup (returns null for an absent key)
     * @param baseDir what relative paths are relative to
     * @throws SynthInputException naming the first bad key
     */
    public static GantryAutoscalerProps read(Function<String, Object> context, Path baseDir,
                                             ConfigValidator validator) {
        String cluster = string(context, "clusterName", null);
        Path config = baseDir.resolve(string(context, "config", DEFAULT_CONFIG));
        Path assets = baseDir.resolve(string(context, "assetsDir", DEFAULT_ASSETS));
        DeploymentSettings settings = DeploymentSettings.DEFAULT
                .withSweepRate(rate(string(context, "scheduleRate", "1 minute")))
                .withConsolidation(consolidation(context, DeploymentSettings.DEFAULT.consolidation()));
        GantryAutoscalerProps props = GantryAutoscalerProps.of(cluster, assets, config, validator)
                .withSettings(settings)
                .withTableRemoval(removal(string(context, "tableRemoval", "retain")))
                .withCniPolicy(bool(string(context, "cniPolicy", "true"), "cniPolicy"))
                .withTokenRotation(string(context, "tokenRotation", ""))
                .withNodePools(java.util.Arrays.stream(string(context, "nodePools", "").split(","))
                        .map(String::trim).filter(p -> !p.isEmpty()).toList())
                .withNodeRoles(java.util.Arrays.stream(string(context, "nodeRoles", "").split(","))
                        .map(String::trim).filter(r -> !r.isEmpty()).toList());
        String vpcId = string(context, "vpcId", null);
        String subnets = string(context, "functionSubnetIds", null);
        if (vpcId == null && subnets == null) {
            return props;
        }
        List<String> ids = subnets == null ? List.of()
                : Arrays.stream(subnets.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        return props.withNetwork(new FunctionNetwork(vpcId, ids));
    }

    /** Karpenter's SpotToSpotConsolidation gate and the strategy; the words are {@link ConsolidationVariables}'s. */
    private static ConsolidationSettings consolidation(Function<String, Object> context, ConsolidationSettings fallback) {
        String spot = string(context, "spotToSpotConsolidation", String.valueOf(fallback.spotToSpot()));
        String strategy = string(context, "consolidationStrategy", ConsolidationVariables.word(fallback.strategy()));
        boolean spotToSpot;
        try {
            spotToSpot = ConsolidationVariables.spotToSpot(spot);
        } catch (IllegalArgumentException e) {
            throw new SynthInputException("context spotToSpotConsolidation: " + e.getMessage());
        }
        try {
            return new ConsolidationSettings(spotToSpot, ConsolidationVariables.strategy(strategy));
        } catch (IllegalArgumentException e) {
            throw new SynthInputException("context consolidationStrategy: " + e.getMessage());
        }
    }

    static java.time.Duration rate(String text) {
        Matcher m = RATE.matcher(text.strip());
        if (!m.matches()) {
            throw new SynthInputException("context scheduleRate: expected '<n> minute(s)|hour(s)|day(s)', got '"
                    + text + "'");
        }
        int n = Integer.parseInt(m.group(1));
        return switch (m.group(2).charAt(0)) {
            case 'm' -> java.time.Duration.ofMinutes(n);
            case 'h' -> java.time.Duration.ofHours(n);
            default -> java.time.Duration.ofDays(n);
        };
    }

    private static RemovalPolicy removal(String text) {
        return switch (text) {
            case "retain" -> RemovalPolicy.RETAIN;
            case "destroy" -> RemovalPolicy.DESTROY;
            default -> throw new SynthInputException("context tableRemoval: expected retain or destroy, got '"
                    + text + "'");
        };
    }

    private static boolean bool(String text, String key) {
        return switch (text) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new SynthInputException("context " + key + ": expected true or false, got '" + text + "'");
        };
    }

    /** Context values come as strings from -c and as JSON values from cdk.json; lists join with commas. */
    private static String string(Function<String, Object> context, String key, String fallback) {
        Object v = context.apply(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof List<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        String s = String.valueOf(v).strip();
        return s.isEmpty() ? fallback : s;
    }
}
