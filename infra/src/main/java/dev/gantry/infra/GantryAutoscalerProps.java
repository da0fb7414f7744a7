package dev.gantry.infra;

import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;
import dev.gantry.config.deployment.DeploymentSettings;
import software.amazon.awscdk.RemovalPolicy;

/**
 * What varies between installations of {@link GantryAutoscaler}. Build with {@link #of} and the {@code with*}
 * methods; every value is checked here so a bad one fails synth with one line.
 *
 * @param clusterName     the EKS cluster to attach to (must exist, authentication mode API or API_AND_CONFIG_MAP)
 * @param assetsDir       holds one jar per function: {@code webhook.jar, provisioner.jar, ...}
 * @param config          a NodePool/NodeClass YAML file, or a directory of them
 * @param validator       checks the YAML at synth
 * @param network         VPC placement for the functions, or null to run them outside a VPC
 * @param settings        queue, event-source and function settings and the sweep's rate (the simulator runs the
 *                        same value); {@link DeploymentSettings#DEFAULT} unless a context key overrides a field
 * @param tableRemoval    what {@code cdk destroy} does to the state table
 * @param cniPolicy       attach AmazonEKS_CNI_Policy to the node role (off when the VPC CNI uses IRSA/Pod Identity)
 * @param tokenRotation   any text; changing it re-runs the attach step, which rewrites the webhook configuration
 *                        with the token's current version (see infra/README.md, "Rotate the webhook token")
 * @param nodePools       the NodePools Gantry manages beside another autoscaler ({@code -c nodePools=a,b}); empty
 *                        for all, where attach refuses to run beside Karpenter or EKS Auto Mode
 * @param nodeRoles       existing IAM roles an EC2NodeClass's {@code spec.role} may name ({@code -c nodeRoles=a,b}, names
 *                        or ARNs; Karpenter's node role, say): each gets an instance profile made here, and the
 *                        provisioner may pass it to EC2. Empty: nodes run as the stack's own node role
 */
public record GantryAutoscalerProps(String clusterName, Path assetsDir, Path config, ConfigValidator validator,
                                    FunctionNetwork network, DeploymentSettings settings, RemovalPolicy tableRemoval,
                                    boolean cniPolicy, String tokenRotation, java.util.List<String> nodePools,
                                    java.util.List<String> nodeRoles) {
    // EKS's own rule for cluster names.
    private static final Pattern CLUSTER_NAME = Pattern.compile("[0-9A-Za-z][A-Za-z0-9_-]{0,99}");
    /** A Kubernetes object name (DNS subdomain). */
    private static final Pattern NODE_POOL_NAME = Pattern.compile("(?=.{1,253}$)[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
    /** IAM's rule for a role name, or a role ARN (with its path). */
    private static final Pattern ROLE = Pattern.compile(
            "[\\w+=,.@-]{1,64}|arn:aws[a-z-]*:iam::\\d{12}:role/([\\w+=,.@-]+/)*[\\w+=,.@-]{1,64}");

    public GantryAutoscalerProps {
        if (clusterName == null || clusterName.isBlank()) {
            throw new SynthInputException("clusterName is required: pass -c clusterName=<your EKS cluster name>");
        }
        if (!CLUSTER_NAME.matcher(clusterName).matches()) {
            throw new SynthInputException("clusterName '" + clusterName
                    + "' is not an EKS cluster name (letters, digits, '-' and '_', at most 100, starting alphanumeric)");
        }
        Objects.requireNonNull(assetsDir, "assetsDir");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(validator, "validator");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(tableRemoval, "tableRemoval");
        tokenRotation = tokenRotation == null ? "" : tokenRotation;
        nodePools = nodePools == null ? java.util.List.of() : java.util.List.copyOf(nodePools);
        for (String pool : nodePools) {
            if (!NODE_POOL_NAME.matcher(pool).matches()) {
                throw new SynthInputException("nodePools: '" + pool + "' is not a NodePool name (lowercase letters, "
                        + "digits, '-' and '.', at most 253, starting and ending alphanumeric)");
            }
        }
        nodeRoles = nodeRoles == null ? java.util.List.of() : java.util.List.copyOf(nodeRoles);
        java.util.Set<String> names = new java.util.HashSet<>();
        for (String role : nodeRoles) {
            if (!ROLE.matcher(role).matches()) {
                throw new SynthInputException("nodeRoles: '" + role + "' is not an IAM role name (letters, digits and "
                        + "+=,.@_-, at most 64) or role ARN (arn:aws:iam::111122223333:role/name)");
            }
            if (!names.add(roleName(role))) {
                throw new SynthInputException("nodeRoles: role '" + roleName(role) + "' is named twice");
            }
        }
        if (!settings.violations().isEmpty()) {
            throw new SynthInputException(String.join("\n", settings.violations()));
        }
    }

    /** Defaults: no VPC, {@link DeploymentSettings#DEFAULT}, table retained, CNI policy attached. */
    public static GantryAutoscalerProps of(String clusterName, Path assetsDir, Path config, ConfigValidator validator) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, null, DeploymentSettings.DEFAULT,
                RemovalPolicy.RETAIN, true, "", java.util.List.of(), java.util.List.of());
    }

    public GantryAutoscalerProps withNetwork(FunctionNetwork n) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, n, settings, tableRemoval,
                cniPolicy, tokenRotation, nodePools, nodeRoles);
    }

    public GantryAutoscalerProps withSettings(DeploymentSettings s) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, network, s, tableRemoval,
                cniPolicy, tokenRotation, nodePools, nodeRoles);
    }

    public GantryAutoscalerProps withTableRemoval(RemovalPolicy policy) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, network, settings, policy,
                cniPolicy, tokenRotation, nodePools, nodeRoles);
    }

    public GantryAutoscalerProps withCniPolicy(boolean attach) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, network, settings,
                tableRemoval, attach, tokenRotation, nodePools, nodeRoles);
    }

    public GantryAutoscalerProps withNodePools(java.util.List<String> pools) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, network, settings,
                tableRemoval, cniPolicy, tokenRotation, pools, nodeRoles);
    }

    public GantryAutoscalerProps withTokenRotation(String rotation) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, network, settings,
                tableRemoval, cniPolicy, rotation, nodePools, nodeRoles);
    }

    public GantryAutoscalerProps withNodeRoles(java.util.List<String> roles) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, network, settings,
                tableRemoval, cniPolicy, tokenRotation, nodePools, roles);
    }

    /** A role's name: itself, or the last segment of its ARN, as the functions match a class's {@code spec.role}. */
    static String roleName(String role) {
        return dev.gantry.core.cloud.NodeRoles.roleName(role);
    }
}
