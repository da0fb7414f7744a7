package dev.gantry.core.status;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.NodeRoles;
import dev.gantry.core.provisioning.NodeClassGate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What makes an EC2NodeClass ready, in one place: a subnet, a security group, an AMI and an instance profile resolved,
 * and the placement group its {@code placementGroupSelector} names listed (aws/karpenter-provider-aws
 * {@code pkg/apis/v1/ec2nodeclass_status.go}: {@code SubnetsReady}, {@code SecurityGroupsReady}, {@code AMIsReady},
 * {@code InstanceProfileReady}, {@code PlacementGroupReady}, True for a class without a selector). The sweep writes
 * these as the NodeClass's conditions ({@link StatusWriter}); the provisioner leaves out the pools of a class that is
 * not ready ({@link #gate}).
 */
public final class NodeClassReadiness {
    private NodeClassReadiness() {
    }

    static final String PLACEMENT_GROUP_READY = "PlacementGroupReady";

    /** One readiness check: its condition type, the reason and message when it fails. */
    private record Check(String type, String reason, String message, java.util.function.Predicate<NodeClassStatus> ok) {
    }

    private static final List<Check> CHECKS = List.of(
            new Check("SubnetsReady", "SubnetsNotFound", "no subnet matches", s -> !s.subnets().isEmpty()),
            new Check("SecurityGroupsReady", "SecurityGroupsNotFound", "no security group matches",
                    s -> !s.securityGroups().isEmpty()),
            new Check("AMIsReady", "AMINotFound", "no AMI matches", s -> !s.amis().isEmpty()),
            new Check("InstanceProfileReady", "InstanceProfileNotFound", "no instance profile", s -> s.instanceProfile() != null),
            new Check(PLACEMENT_GROUP_READY, "PlacementGroupNotFound", "placement group not found",
                    s -> Condition.find(s.conditions(), PLACEMENT_GROUP_READY).map(c -> c.status() != Condition.Status.False)
                            .orElse(true)));

    /**
     * The five conditions for {@code resolved}. A check that passes is True with its type as the reason, unless the
     * resolution carries a True condition of that type saying how it passed (the instance profile of a role the
     * deployment cannot pass: {@code InstanceProfileReady} True, reason {@code DeploymentNodeRole}), which is used as it
     * is; one that fails is False with its reason and message, or as the resolution's own False condition of that type
     * says (the placement group not found, by its selector).
     */
    static List<Condition> conditions(NodeClassStatus resolved, Instant now) {
        List<Condition> out = new ArrayList<>();
        for (Check c : CHECKS) {
            if (!c.ok().test(resolved)) {
                Condition failed = failure(c, resolved);
                out.add(new Condition(c.type(), Condition.Status.False, failed.reason(), failed.message(), now));
                continue;
            }
            out.add(Condition.find(resolved.conditions(), c.type()).filter(x -> x.status() == Condition.Status.True)
                    .map(x -> new Condition(c.type(), Condition.Status.True, x.reason(), x.message(), now))
                    .orElseGet(() -> Condition.isTrue(c.type(), c.type(), now)));
        }
        return out;
    }

    /** The failed check's condition: the resolution's own False one of its type, else the check's reason and message. */
    private static Condition failure(Check c, NodeClassStatus resolved) {
        return Condition.find(resolved.conditions(), c.type()).filter(x -> x.status() == Condition.Status.False)
                .orElseGet(() -> Condition.isFalse(c.type(), c.reason(), c.message(), Instant.EPOCH));
    }

    /**
     * What the resolution says of a placement group its class selects and EC2 does not list, as Karpenter's
     * placement-group reconciler says it ({@code PlacementGroupReady} False, reason {@code PlacementGroupNotFound}).
     */
    public static Condition placementGroupNotFound(String selector) {
        return Condition.isFalse(PLACEMENT_GROUP_READY, "PlacementGroupNotFound",
                "Placement group \"" + selector + "\" not found", Instant.EPOCH);
    }

    /**
     * The five conditions of a class that was not resolved ({@code why}: the reader refused it, or the lookups failed):
     * Unknown, reason {@code NotResolved}, since nothing is known of what its selector terms select.
     */
    static List<Condition> notResolved(String why, Instant now) {
        return CHECKS.stream().map(c -> Condition.unknown(c.type(), "NotResolved", why, now)).toList();
    }

    /**
     * {@code ValidationSucceeded}, as Karpenter v1.14's EC2NodeClass validation controller sets it
     * (aws/karpenter-provider-aws {@code pkg/controllers/nodeclass/validation.go}): False with the reader's messages
     * when it refused the class ({@code problems}; Karpenter's runtime checks of what its CRD's rules cannot express);
     * otherwise False while one of the five is False and Unknown while one is Unknown (reason
     * {@code DependenciesNotReady}, Karpenter's words), and True once all five are True. Karpenter's dry-run
     * authorization checks (CreateFleet, CreateLaunchTemplate, RunInstances) are not made: Gantry's IAM is proven
     * against its code at build time, and a refused launch says so in the pool's {@code NodeRegistrationHealthy}.
     */
    static Condition validation(List<String> problems, List<Condition> checks, Instant now) {
        if (!problems.isEmpty()) {
            return Condition.isFalse("ValidationSucceeded", "ValidationFailed", String.join("; ", problems), now);
        }
        String waiting = "Awaiting AMI, Instance Profile, Security Group, and Subnet resolution";
        if (checks.stream().anyMatch(c -> c.status() == Condition.Status.False)) {
            return Condition.isFalse("ValidationSucceeded", "DependenciesNotReady", waiting, now);
        }
        if (checks.stream().anyMatch(c -> c.status() == Condition.Status.Unknown)) {
            return Condition.unknown("ValidationSucceeded", "DependenciesNotReady", waiting, now);
        }
        return Condition.isTrue("ValidationSucceeded", "ValidationSucceeded", now);
    }

    /**
     * A resolution's own {@code InstanceProfileReady} condition when {@code profile} is not the named role's (True,
     * reason {@code DeploymentNodeRole}, {@link NodeRoles.InstanceProfile#note}), which {@link #conditions} writes as it
     * is (at its own time); empty otherwise.
     */
    public static List<Condition> howFound(NodeRoles.InstanceProfile profile) {
        return profile.note() == null ? List.of() : List.of(new Condition("InstanceProfileReady", Condition.Status.True,
                "DeploymentNodeRole", profile.note(), Instant.EPOCH));
    }

    /** The first thing {@code resolved} lacks, in its condition's words, or empty when it has all five. */
    public static Optional<String> missing(NodeClassStatus resolved) {
        return CHECKS.stream().filter(c -> !c.ok().test(resolved)).map(c -> failure(c, resolved).message()).findFirst();
    }

    /**
     * The provisioner's gate over {@code resolver} (the launch path's cached lookups): not ready when the resolution
     * lacks one of the five, or fails with a cloud error that is not retryable (nothing matches, access refused). A
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
