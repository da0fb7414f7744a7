package dev.gantry.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A NodeClass is named by its group, kind and name, as a NodePool's {@code nodeClassRef} names it: an EKS Auto Mode
 * {@code NodeClass} and an {@code EC2NodeClass} called {@code default} are two classes.
 */
class NodeClassIdentityTest {
    private static NodeClass of(String group, String kind) {
        return new NodeClass("default", group, kind, null, List.of(), List.of(), List.of(), "Role", null, null, Map.of(),
                List.of(), null, null, null, null, null);
    }

    private static final NodeClass EC2 = of("karpenter.k8s.aws", "EC2NodeClass");
    private static final NodeClass AUTO = of("eks.amazonaws.com", "NodeClass");

    @Test
    void aRefNamesTheClassOfItsGroupAndKindOnly() {
        NodePool.NodeClassRef auto = new NodePool.NodeClassRef("eks.amazonaws.com", "NodeClass", "default");
        NodePool.NodeClassRef karpenter = new NodePool.NodeClassRef(null, null, "default"); // Karpenter's defaults
        assertThat(AUTO.isNamedBy(auto)).isTrue();
        assertThat(EC2.isNamedBy(auto)).isFalse();
        assertThat(EC2.isNamedBy(karpenter)).isTrue();
        assertThat(AUTO.isNamedBy(karpenter)).isFalse();
        assertThat(EC2.isNamedBy(new NodePool.NodeClassRef(null, null, "other"))).isFalse();
        assertThat(of(null, null).isNamedBy(karpenter)).as("a class built without group and kind is an EC2NodeClass").isTrue();
    }

    /** An EC2NodeClass's key is its name, which Gantry's stored rollout markers have always used; another kind's differs. */
    @Test
    void keysTellTheKindsApartAndKeepTheEc2NodeClassName() {
        assertThat(EC2.key()).isEqualTo("default");
        assertThat(AUTO.key()).isEqualTo("NodeClass.eks.amazonaws.com/default").isNotEqualTo(EC2.key());
    }
}
