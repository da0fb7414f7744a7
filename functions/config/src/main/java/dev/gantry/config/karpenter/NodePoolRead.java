package dev.gantry.config.karpenter;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;

/**
 * A NodePool as read, with kubelet settings written on an older schema's pool ({@code spec.template.spec.kubelet}
 * in v1beta1, {@code kubeletConfiguration} in v1alpha5) that belong on its NodeClass in v1, or null.
 */
public record NodePoolRead(NodePool pool, NodeClass.Kubelet movedKubelet) {
}
