package dev.gantry.infra;

import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;
import software.amazon.awscdk.Duration;
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
 * @param scheduleRate    how often the sweep runs
 * @param tableRemoval    what {@code cdk destroy} does to the state table
 * @param cniPolicy       attach AmazonEKS_CNI_Policy to the node role (off when the VPC CNI uses IRSA/Pod Identity)
 * @param webhookReservedConcurrency cap on concurrent webhook invocations (cost guard), or null for none
 */
public record GantryAutoscalerProps(String clusterName, Path assetsDir, Path config, ConfigValidator validator,
                                    FunctionNetwork network, Duration scheduleRate, RemovalPolicy tableRemoval,
                                    boolean cniPolicy, Integer webhookReservedConcurrency) {
    // EKS's own rule for cluster names.
    private static final Pattern CLUSTER_NAME = Pattern.compile("[0-9A-Za-z][A-Za-z0-9_-]{0,99}");

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
        Objects.requireNonNull(scheduleRate, "scheduleRate");
        Objects.requireNonNull(tableRemoval, "tableRemoval");
        if (scheduleRate.toSeconds().doubleValue() < 60) {
            throw new SynthInputException("scheduleRate must be at least 1 minute (EventBridge's finest rate)");
        }
        if (webhookReservedConcurrency != null && webhookReservedConcurrency < 1) {
            throw new SynthInputException("webhookReservedConcurrency must be at least 1");
        }
    }

    /** Defaults: no VPC, sweep every minute, table retained, CNI policy attached, webhook capped at 10. */
    public static GantryAutoscalerProps of(String clusterName, Path assetsDir, Path config, ConfigValidator validator) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, null, Duration.minutes(1),
                RemovalPolicy.RETAIN, true, 10);
    }

    public GantryAutoscalerProps withNetwork(FunctionNetwork n) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, n, scheduleRate, tableRemoval,
                cniPolicy, webhookReservedConcurrency);
    }

    public GantryAutoscalerProps withScheduleRate(Duration rate) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, network, rate, tableRemoval,
                cniPolicy, webhookReservedConcurrency);
    }

    public GantryAutoscalerProps withTableRemoval(RemovalPolicy policy) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, network, scheduleRate, policy,
                cniPolicy, webhookReservedConcurrency);
    }

    public GantryAutoscalerProps withCniPolicy(boolean attach) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, network, scheduleRate,
                tableRemoval, attach, webhookReservedConcurrency);
    }

    public GantryAutoscalerProps withWebhookReservedConcurrency(Integer cap) {
        return new GantryAutoscalerProps(clusterName, assetsDir, config, validator, network, scheduleRate,
                tableRemoval, cniPolicy, cap);
    }
}
