package dev.gantry.kube.objects;

import static dev.gantry.kube.objects.Selectors.nonNull;

import dev.gantry.core.model.Node;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.List;

/** A fabric8 node as the core's {@link Node}. */
public final class NodeMapper {
    private NodeMapper() {
    }

    public static Node node(io.fabric8.kubernetes.api.model.Node n) {
        ObjectMeta m = n.getMetadata();
        NodeSpec spec = n.getSpec() == null ? new NodeSpec() : n.getSpec();
        NodeStatus status = n.getStatus() == null ? new NodeStatus() : n.getStatus();
        List<Taint> taints = taints(spec.getTaints());
        boolean disrupted = taints.stream().anyMatch(t -> t.key().equals(Taint.DISRUPTED.key()));
        return new Node(m.getName(), spec.getProviderID(), m.getLabels(), m.getAnnotations(), taints,
                Resources.fromQuantities(PodMapper.quantities(status.getAllocatable())), ready(status),
                Boolean.TRUE.equals(spec.getUnschedulable()), disrupted, PodMapper.instant(m.getCreationTimestamp()),
                m.getFinalizers(), PodMapper.instant(m.getDeletionTimestamp()), conditions(status));
    }

    /**
     * Every condition with its status and {@code lastTransitionTime} (node repair counts its toleration from that
     * time); a condition without a type is skipped, a missing status reads as Unknown, as the API server defaults it.
     */
    public static List<dev.gantry.core.model.NodeCondition> conditions(NodeStatus status) {
        List<dev.gantry.core.model.NodeCondition> out = new ArrayList<>();
        for (NodeCondition c : nonNull(status.getConditions())) {
            if (c.getType() != null) {
                out.add(new dev.gantry.core.model.NodeCondition(c.getType(), c.getStatus(),
                        PodMapper.instant(c.getLastTransitionTime())));
            }
        }
        return out;
    }

    public static List<Taint> taints(List<io.fabric8.kubernetes.api.model.Taint> ts) {
        List<Taint> out = new ArrayList<>();
        for (io.fabric8.kubernetes.api.model.Taint t : nonNull(ts)) {
            out.add(new Taint(t.getKey(), t.getValue(), Taint.Effect.parse(t.getEffect())));
        }
        return out;
    }

    private static boolean ready(NodeStatus status) {
        for (NodeCondition c : nonNull(status.getConditions())) {
            if ("Ready".equals(c.getType())) {
                return "True".equals(c.getStatus());
            }
        }
        return false;
    }
}
