package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.model.Taint;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeJsonPatchTest {
    static Node node() {
        return new NodeBuilder().withNewMetadata().withName("n").withResourceVersion("42").addToLabels("a", "1").endMetadata()
                .withNewSpec().endSpec().build();
    }

    @Test
    void escapesSlashesAndTildesInLabelKeysAsJsonPointerTokens() {
        List<Map<String, Object>> ops = NodeJsonPatch.of(node(), NodePatch.labels(Map.of("karpenter.sh/nodepool", "default")));
        assertThat(ops).containsExactly(
                Map.of("op", "add", "path", "/metadata/resourceVersion", "value", "42"),
                Map.of("op", "add", "path", "/metadata/labels/karpenter.sh~1nodepool", "value", "default"));
        assertThat(NodeJsonPatch.escape("a~b/c")).isEqualTo("a~0b~1c");
    }

    /** Annotations as labels: one op per changed key, the whole map when the node has none. */
    @Test
    void setsAnnotationsOneOpEachOrTheWholeMapWhenTheNodeHasNone() {
        NodePatch patch = new NodePatch(null, null, null, null, null, null, null, Map.of("example.com/team", "web"));
        assertThat(NodeJsonPatch.of(node(), patch)).containsExactly(
                Map.of("op", "add", "path", "/metadata/resourceVersion", "value", "42"),
                Map.of("op", "add", "path", "/metadata/annotations", "value", Map.of("example.com/team", "web")));
        Node annotated = new NodeBuilder(node()).editMetadata().addToAnnotations("example.com/team", "db")
                .addToAnnotations("other", "x").endMetadata().build();
        assertThat(NodeJsonPatch.of(annotated, patch)).last().isEqualTo(
                Map.of("op", "add", "path", "/metadata/annotations/example.com~1team", "value", "web"));
        Node same = new NodeBuilder(node()).editMetadata().addToAnnotations("example.com/team", "web").endMetadata().build();
        assertThat(NodeJsonPatch.of(same, patch)).isEmpty();
    }

    @Test
    void patchesNothingWhenTheNodeAlreadyIsAsAsked() {
        assertThat(NodeJsonPatch.of(node(), new NodePatch(Map.of("a", "1"), null, List.of("absent"), false, null, List.of("absent"))))
                .isEmpty();
    }

    @Test
    void writesTheWholeSpecWhenTheNodeHasNone() {
        Node bare = new NodeBuilder().withNewMetadata().withName("n").withResourceVersion("7").endMetadata().build();
        List<Map<String, Object>> ops = NodeJsonPatch.of(bare, new NodePatch(Map.of("x", "y"), List.of(Taint.DISRUPTED), null, true,
                List.of("gantry.dev/termination"), null));
        assertThat(ops).containsExactly(
                Map.of("op", "add", "path", "/metadata/resourceVersion", "value", "7"),
                Map.of("op", "add", "path", "/metadata/labels", "value", Map.of("x", "y")),
                Map.of("op", "add", "path", "/metadata/finalizers", "value", List.of("gantry.dev/termination")),
                Map.of("op", "add", "path", "/spec", "value", Map.of(
                        "taints", List.of(Map.of("key", "karpenter.sh/disrupted", "effect", "NoSchedule")),
                        "unschedulable", true)));
    }

    @Test
    void replacesATaintsValueByRemovingItsKeyAndAddingItAgain() {
        Node n = new NodeBuilder(node()).editSpec().addNewTaint().withKey("k").withValue("old").withEffect("NoSchedule").endTaint()
                .endSpec().build();
        List<Map<String, Object>> ops = NodeJsonPatch.of(n, new NodePatch(null, List.of(new Taint("k", "new", Taint.Effect.NoSchedule)),
                List.of("k"), null, null, null));
        assertThat(ops).last().isEqualTo(Map.of("op", "add", "path", "/spec/taints",
                "value", List.of(Map.of("key", "k", "value", "new", "effect", "NoSchedule"))));
    }

    /** Gantry's own: a removed label is one remove op, and only when present (a remove of a missing path fails it all). */
    @Test
    void removesOnlyTheLabelsThatArePresent() {
        List<Map<String, Object>> ops = NodeJsonPatch.of(node(), NodePatch.relabel(Map.of("b", "2"), List.of("a", "absent")));
        assertThat(ops).containsExactly(
                Map.of("op", "add", "path", "/metadata/resourceVersion", "value", "42"),
                Map.of("op", "add", "path", "/metadata/labels/b", "value", "2"),
                Map.of("op", "remove", "path", "/metadata/labels/a"));
    }
}
