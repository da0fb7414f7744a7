package dev.gantry.config.validate;

import dev.gantry.config.source.Diagnostic;
import dev.gantry.config.LoadResult;
import dev.gantry.config.LoadedObject;
import dev.gantry.config.source.SourceLocation;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which catalogue instance types each NodePool allows: those whose requirements (labels, zones and capacity types
 * of available offerings) are compatible with the pool's. A pool that allows none is an error naming the
 * requirement that emptied the set, found by applying the pool's requirements one at a time in written order.
 */
public final class CatalogCheck {
    /** A NodePool with no NodeClass in the input is checked against Karpenter's default (AL2023) NodeClass. */
    private static final NodeClass DEFAULT_NODE_CLASS = new NodeClass("default", "karpenter.k8s.aws", "EC2NodeClass",
            null, List.of(NodeClass.AmiSelectorTerm.alias("al2023@latest")), null, null, null, null, null, null, null,
            null, null, null, null, null);

    private final java.util.function.Function<NodePool, InstanceTypeProvider> providers;

    /** Checks every pool against one catalogue. */
    public CatalogCheck(InstanceTypeProvider provider) {
        this.providers = pool -> provider;
    }

    private CatalogCheck(java.util.function.Function<NodePool, InstanceTypeProvider> providers) {
        this.providers = providers;
    }

    /** Checks each pool against the catalogue chosen for it (a pool pinned to another region's zones, say). */
    public static CatalogCheck perPool(java.util.function.Function<NodePool, InstanceTypeProvider> providers) {
        return new CatalogCheck(providers);
    }

    /** One pool's outcome: the allowed types by name, or the error when there are none. */
    public record PoolCheck(String nodePool, List<InstanceType> allowed, Diagnostic error) {
    }

    /** Checks every NodePool in the result. */
    public List<PoolCheck> check(LoadResult result) {
        List<PoolCheck> out = new ArrayList<>();
        for (NodePool pool : result.nodePools()) {
            out.add(check(pool, nodeClassOf(pool, result), result.object("NodePool", pool.name())));
        }
        return out;
    }

    /** Checks one pool; {@code source} (may be null) points the error at the emptying requirement's line. */
    public PoolCheck check(NodePool pool, NodeClass nodeClass, LoadedObject source) {
        List<InstanceType> types = providers.apply(pool).instanceTypes(nodeClass);
        Requirements all = pool.requirements();
        List<InstanceType> allowed = types.stream().filter(t -> all.compatible(t.requirements())).toList();
        if (!allowed.isEmpty()) {
            return new PoolCheck(pool.name(), allowed, null);
        }
        return new PoolCheck(pool.name(), allowed, emptied(pool, types, source));
    }

    private Diagnostic emptied(NodePool pool, List<InstanceType> types, LoadedObject source) {
        List<Requirement> reqs = pool.template().requirements();
        String field = "spec.template.spec.requirements";
        String what = "the requirements";
        Requirements so = Requirements.NONE;
        List<InstanceType> left = types;
        boolean found = false;
        for (int i = 0; i < reqs.size() && !found; i++) {
            so = so.intersect(Requirements.of(reqs.get(i)));
            Requirements cur = so;
            left = left.stream().filter(t -> cur.compatible(t.requirements())).toList();
            if (left.isEmpty()) {
                field = requirementField(source, i);
                what = "requirement " + reqs.get(i);
                found = true;
            }
        }
        for (Map.Entry<String, String> e : pool.template().labels().entrySet()) {
            if (found) {
                break;
            }
            Requirements cur = Requirements.of(List.of()).with(e.getKey(), ValueSet.in(e.getValue()));
            left = left.stream().filter(t -> cur.compatible(t.requirements())).toList();
            if (left.isEmpty()) {
                field = "spec.template.metadata.labels." + e.getKey();
                what = "label " + e.getKey() + "=" + e.getValue();
                found = true;
            }
        }
        String message = types.isEmpty() ? "the catalogue has no instance types for this NodeClass"
                : "no instance type in the catalogue satisfies the requirements; " + what + " left none of "
                + types.size();
        SourceLocation at = source == null ? new SourceLocation("<input>", 1, 1) : source.locationOf(field);
        String label = source == null ? "NodePool/" + pool.name() : source.label();
        return new Diagnostic(at.path(), at.line(), at.column(), label, field, message);
    }

    private static String requirementField(LoadedObject source, int i) {
        String v1 = "spec.template.spec.requirements[" + i + "]";
        if (source != null && !source.fields().containsKey(v1) && source.fields().containsKey("spec.requirements[" + i + "]")) {
            return "spec.requirements[" + i + "]";
        }
        return v1;
    }

    static NodeClass nodeClassOf(NodePool pool, LoadResult result) {
        NodePool.NodeClassRef ref = pool.template().nodeClassRef();
        for (NodeClass c : result.nodeClasses()) {
            if (c.group().equals(ref.group()) && c.kind().equals(ref.kind()) && c.name().equals(ref.name())) {
                return c;
            }
        }
        return DEFAULT_NODE_CLASS;
    }
}
