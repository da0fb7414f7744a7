package dev.gantry.config.catalog;

import dev.gantry.core.model.NodeClass;
import java.util.List;
import java.util.Map;

/** NodeClasses for catalogue tests: defaults plus the one override a test is about. */
final class CatalogFixtures {
    private CatalogFixtures() {
    }

    static NodeClass al2023() {
        return nodeClass("AL2023", NodeClass.Kubelet.DEFAULT);
    }

    static NodeClass nodeClass(String amiFamily, NodeClass.Kubelet kubelet) {
        return new NodeClass("default", "karpenter.k8s.aws", "EC2NodeClass", amiFamily, List.of(), List.of(), List.of(),
                "KarpenterNodeRole", null, null, Map.of(), List.of(), null, kubelet, null, null, null);
    }
}
