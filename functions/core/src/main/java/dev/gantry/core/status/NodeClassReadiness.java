package dev.gantry.core.status;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.provisioning.NodeClassGate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What makes an EC2NodeClass ready, in one place: a subnet, a security group, an AMI and an instance profile resolved
 * (aws/karpenter-provider-aws {@code pkg/apis/v1/ec2nodeclass_status.go}: {@code SubnetsReady},
 * {@code SecurityGroupsReady}, {@code AMIsReady}, {@code InstanceProfileReady}). The sweep writes these as the
 * NodeClass's conditions ({@link StatusWriter}); the provisioner leaves out the pools of a class that is not ready
 * ({@link #gate}).
 */
public final class NodeClassReadiness {
    private NodeClassReadiness() {
    }

    /** One readiness check: its condition type, the reason and message when it fails. */
    private record Check(String type, String reason, String message, java.util.function.Predicate<NodeClassStatus> ok) {
    }

    private static final List<Check> CHECKS = List.of(
            new Check("SubnetsReady", "SubnetsNotFound", "no subnet matches", s -> !s.subnets().isEmpty()),
            new Check("SecurityGroupsReady", "SecurityGroupsNotFound", "no security group matches",
                    s -> !s.securityGroups().isEmpty()),
            new Check("AMIsReady", "AMINotFound", "no AMI matches", s -> !s.amis().isEmpty()),
            new Check("InstanceProfileReady", "InstanceProfileNotFound", "no instance profile", s -> s.instanceProfile() != null));

    /**
     * The four conditions for {@code resolved}; every one False when the class could not be resolved at all
     * ({@code resolvedOnce} false).
     */
    static List<Condition> conditions(NodeClassStatus resolved, boolean resolvedOnce, Instant now) {
        List<Condition> out = new ArrayList<>();
        for (Check c : CHECKS) {
            out.add(resolvedOnce && c.ok().test(resolved) ? Condition.isTrue(c.type(), c.type(), now)
                    : Condition.isFalse(c.type(), c.reason(), c.message(), now));
        }
        return out;
    }

    /** The first thing {@code resolved} lacks, or empty when it has all four. */
    public static Optional<String> missing(NodeClassStatus resolved) {
        return CHECKS.stream().filter(c -> !c.ok().test(resolved)).map(Check::message).findFirst();
    }

    /**
     * The provisioner's gate over {@code resolver} (the launch path's cached lookups): not ready when the resolution
     * lacks one of the four, or fails with a cloud error that is not retryable (nothing matches, access refused). A
     * retryable error, or any other failure, says nothing: the pool stays in, and its launch meets the error itself.
     */
    public static NodeClassGate gate(NodeClassResolver resolver) {
        return nodeClass -> {
            try {
                return missing(resolver.resolve(nodeClass));
            } catch (CloudException e) {
                return e.retryable() ? Optional.empty() : Optional.of(e.getMessage());
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        };
    }
}
