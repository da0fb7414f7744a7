package dev.gantry.core.provisioning;

import dev.gantry.core.model.NodeClass;
import java.util.Optional;

/**
 * Whether a NodeClass can launch now: a NodePool whose NodeClass cannot is left out of planning, so its pods go to the
 * next pool by weight rather than to launches that must fail. Karpenter does the same with the NodePool's
 * {@code Ready} condition (kubernetes-sigs/karpenter {@code pkg/controllers/provisioning/provisioner.go},
 * {@code NewScheduler}: "ignoring nodepool, not ready"; {@code pkg/controllers/static/provisioning/controller.go},
 * {@code Reconcile}, for static pools); Gantry asks the NodeClass's own resolution in the run itself, through the
 * lookups a launch makes, so that a pool is usable as soon as it resolves rather than a sweep later.
 *
 * <p>Contract: {@link #notReady} returns why the class cannot launch (nothing matches its subnet, security group or
 * AMI selector terms, no instance profile, or a lookup refused for good), or empty when it can or when it cannot be
 * told now (a throttled or failed call: the launch itself meets the same error and is retried). It may be called for
 * every class on every run: implementations answer from the launch path's caches. Never throws.
 */
@FunctionalInterface
public interface NodeClassGate {
    /** Every class can launch: for what-ifs and runs without a cloud to ask. */
    NodeClassGate OPEN = nc -> Optional.empty();

    /** Why {@code nodeClass} cannot launch now, or empty. */
    Optional<String> notReady(NodeClass nodeClass);
}
