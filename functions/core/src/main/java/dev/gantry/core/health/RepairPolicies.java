package dev.gantry.core.health;

import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * When a node is beyond saving: the repair policies Karpenter's AWS provider declares (aws
 * {@code pkg/cloudprovider/cloudprovider.go}, {@code RepairPolicies()}, v1.14.1), one line each, so a new condition
 * is one line in {@link #AWS}. The kubelet writes {@code Ready}; the EKS node monitoring agent (or Node Problem
 * Detector) writes the others.
 *
 * <p>The toleration counts from the condition's {@code lastTransitionTime}; when several policies match, the earliest
 * deadline wins (core {@code pkg/controllers/node/health/controller.go}, {@code findUnhealthyConditions}).
 *
 * <p>Gantry's own, for nodes whose source carries no conditions (a node built by a test or a manifest, with only
 * {@code ready}): a node not Ready and without a {@code Ready} condition counts as {@code Ready=Unknown} since the sweep
 * first saw it not Ready.
 */
public final class RepairPolicies {
    private static final Duration THIRTY_MINUTES = Duration.ofMinutes(30);

    /** Karpenter's AWS provider's table. */
    public static final List<RepairPolicy> AWS = List.of(
            new RepairPolicy(NodeCondition.READY, NodeCondition.FALSE, THIRTY_MINUTES),
            new RepairPolicy(NodeCondition.READY, NodeCondition.UNKNOWN, THIRTY_MINUTES),
            new RepairPolicy("AcceleratedHardwareReady", NodeCondition.FALSE, Duration.ofMinutes(10)),
            new RepairPolicy("StorageReady", NodeCondition.FALSE, THIRTY_MINUTES),
            new RepairPolicy("NetworkingReady", NodeCondition.FALSE, THIRTY_MINUTES),
            new RepairPolicy("KernelReady", NodeCondition.FALSE, THIRTY_MINUTES),
            new RepairPolicy("ContainerRuntimeReady", NodeCondition.FALSE, THIRTY_MINUTES));

    /**
     * A condition that matched a policy, and when its toleration runs out.
     *
     * @param condition the condition's type (Ready, KernelReady…)
     * @param status    the status it has held
     * @param since     its {@code lastTransitionTime}
     * @param deadline  {@code since} plus the policy's toleration
     */
    public record Breach(String condition, String status, Instant since, Instant deadline) {
        /** Past the toleration at {@code now}: repair now. */
        public boolean due(Instant now) {
            return !now.isBefore(deadline);
        }
    }

    private final List<RepairPolicy> policies;

    public RepairPolicies(List<RepairPolicy> policies) {
        this.policies = List.copyOf(policies);
    }

    /** Karpenter's AWS provider's policies ({@link #AWS}). */
    public static RepairPolicies aws() {
        return new RepairPolicies(AWS);
    }

    /**
     * The matching condition with the earliest deadline, if any. {@code notReadySince}: when the sweep first saw the
     * node not Ready (the stand-in for a missing {@code Ready} condition's transition time), or null.
     */
    public Optional<Breach> breach(Node node, Instant notReadySince) {
        Breach best = null;
        for (RepairPolicy p : policies) {
            NodeCondition c = condition(node, p.type(), notReadySince);
            if (c == null || !c.status().equals(p.status()) || c.lastTransitionTime() == null) {
                continue;
            }
            Instant deadline = c.lastTransitionTime().plus(p.toleration());
            if (best == null || deadline.isBefore(best.deadline())) {
                best = new Breach(c.type(), c.status(), c.lastTransitionTime(), deadline);
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Unhealthy, for the safeguard's count: some condition has a policy's status, however long it has (Karpenter
     * counts a node as soon as a condition matches, toleration or not).
     */
    public boolean unhealthy(Node node) {
        for (RepairPolicy p : policies) {
            NodeCondition c = condition(node, p.type(), null);
            if (c != null && c.status().equals(p.status())) {
                return true;
            }
        }
        return false;
    }

    private static NodeCondition condition(Node node, String type, Instant notReadySince) {
        Optional<NodeCondition> c = node.condition(type);
        if (c.isPresent()) {
            return c.get();
        }
        if (type.equals(NodeCondition.READY) && !node.ready()) {
            return new NodeCondition(NodeCondition.READY, NodeCondition.UNKNOWN, notReadySince);
        }
        return null;
    }
}
