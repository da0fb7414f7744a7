package dev.gantry.config;

import dev.gantry.config.source.SourceLocation;
import dev.gantry.config.source.Diagnostic;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks and fixes that need every object of the input: duplicates, implicit NodeClasses from Provisioners,
 * kubelet settings moved off older NodePools onto their NodeClass, and {@code nodeClassRef}s that name nothing.
 */
final class CrossChecks {
    private final ConfigLoader.Results r;
    private final LoadOptions options;

    CrossChecks(ConfigLoader.Results results, LoadOptions options) {
        this.r = results;
        this.options = options;
    }

    void run() {
        dropDuplicates();
        addImplicitNodeClasses();
        moveKubelets();
        resolveRefs();
    }

    private void dropDuplicates() {
        Map<String, LoadedObject> seen = new HashMap<>();
        List<String> dropped = new ArrayList<>();
        for (LoadedObject o : r.objects) {
            if (!o.kind().equals("NodePool") && !o.kind().equals("EC2NodeClass") && !o.kind().equals("NodeClass")) {
                continue;
            }
            LoadedObject first = seen.putIfAbsent(o.label(), o);
            if (first != null) {
                SourceLocation l = o.location();
                r.errors.add(new Diagnostic(l.path(), l.line(), l.column(), o.label(), "metadata.name",
                        "duplicate " + o.kind() + " \"" + o.name() + "\" (first defined at " + first.location() + ")"));
                dropped.add(o.label());
            }
        }
        // Keep the first of each duplicate so later stages still see one object per name.
        r.nodePools.removeIf(p -> dropped.contains("NodePool/" + p.name()) && r.nodePools.indexOf(p) != firstPool(p.name()));
        r.nodeClasses.removeIf(c -> dropped.contains(c.kind() + "/" + c.name()) && r.nodeClasses.indexOf(c) != firstClass(c));
    }

    private int firstPool(String name) {
        for (int i = 0; i < r.nodePools.size(); i++) {
            if (r.nodePools.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private int firstClass(NodeClass c) {
        for (int i = 0; i < r.nodeClasses.size(); i++) {
            if (r.nodeClasses.get(i).kind().equals(c.kind()) && r.nodeClasses.get(i).name().equals(c.name())) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A Provisioner's inline provider becomes an EC2NodeClass named after it; when the input also defines an
     * EC2NodeClass of that name, the implicit one is named {@code <provisioner>-provider} instead, so neither hides
     * the other.
     */
    private void addImplicitNodeClasses() {
        r.implicitNodeClasses.forEach((poolName, nc) -> {
            LoadedObject pool = r.objects.stream().filter(o -> o.kind().equals("NodePool") && o.name().equals(poolName))
                    .findFirst().orElseThrow();
            SourceLocation at = pool.locationOf("spec.provider");
            NodeClass implicit = nc;
            if (find("karpenter.k8s.aws", "EC2NodeClass", nc.name()) != null) {
                String renamed = nc.name() + "-provider";
                r.warnings.add(new Diagnostic(at.path(), at.line(), at.column(), "Provisioner/" + poolName, "spec.provider",
                        "the implicit EC2NodeClass is named \"" + renamed + "\" because EC2NodeClass/" + nc.name()
                                + " is also defined"));
                implicit = nc.withName(renamed);
                replacePool(poolName, implicit.name());
            }
            r.nodeClasses.add(implicit);
            r.objects.add(new LoadedObject("EC2NodeClass", implicit.name(), "karpenter.sh/v1alpha5",
                    nc.convertedFrom(), at, Map.of()));
        });
    }

    private void moveKubelets() {
        r.movedKubelets.forEach((poolName, kubelet) -> {
            NodePool pool = r.nodePools.stream().filter(p -> p.name().equals(poolName)).findFirst().orElse(null);
            NodeClass nc = pool == null ? null : find(pool.template().nodeClassRef());
            if (nc == null) {
                return;
            }
            if (!nc.kubelet().equals(NodeClass.Kubelet.DEFAULT)) {
                SourceLocation at = r.objects.stream().filter(o -> o.kind().equals("NodePool") && o.name().equals(poolName))
                        .findFirst().map(LoadedObject::location).orElse(new SourceLocation("", 1, 1));
                r.warnings.add(new Diagnostic(at.path(), at.line(), at.column(), "NodePool/" + poolName, "",
                        "kubelet settings ignored: " + nc.kind() + "/" + nc.name() + " sets its own kubelet"));
                return;
            }
            r.nodeClasses.set(r.nodeClasses.indexOf(nc), nc.withKubelet(kubelet));
        });
    }

    /**
     * A {@code nodeClassRef} that names no NodeClass read: when the NodeClass is in the input but was rejected, says so
     * (its own errors are above); otherwise it is not in the input, with the nearest NodeClass name of that kind as a
     * "did you mean" on the {@code name} line. An error with {@code --strict}, else a warning (the NodeClass may
     * already be in the cluster).
     */
    private void resolveRefs() {
        for (NodePool p : r.nodePools) {
            NodePool.NodeClassRef ref = p.template().nodeClassRef();
            if (find(ref) != null) {
                continue;
            }
            LoadedObject o = r.objects.stream().filter(x -> x.kind().equals("NodePool") && x.name().equals(p.name()))
                    .findFirst().orElse(null);
            if (o == null) {
                continue;
            }
            String field = o.fields().containsKey("spec.providerRef") ? "spec.providerRef" : "spec.template.spec.nodeClassRef";
            String what = ref.kind() + " \"" + ref.name() + "\"";
            List<String> namesOfKind = r.objects.stream().filter(x -> sameKind(x, ref)).map(LoadedObject::name).toList();
            String msg;
            String suffix = "";
            if (namesOfKind.contains(ref.name())) {
                msg = what + " has errors (see above)";
            } else {
                msg = what + " (group " + ref.group() + ") is not in the input";
                String near = dev.gantry.config.yaml.Suggest.closest(ref.name(), namesOfKind);
                if (near != null && o.fields().containsKey(field + ".name")) {
                    field = field + ".name";
                    msg = msg + ", did you mean \"" + near + "\"?";
                } else {
                    suffix = "; assuming it exists in the cluster";
                }
            }
            SourceLocation at = o.locationOf(field);
            if (options.strict()) {
                r.errors.add(new Diagnostic(at.path(), at.line(), at.column(), o.label(), field, msg));
            } else {
                r.warnings.add(new Diagnostic(at.path(), at.line(), at.column(), o.label(), field, msg + suffix));
            }
        }
    }

    /** Whether a loaded object is a NodeClass of the kind and group {@code ref} names. */
    private static boolean sameKind(LoadedObject x, NodePool.NodeClassRef ref) {
        String group = x.apiVersion().contains("/") ? x.apiVersion().substring(0, x.apiVersion().indexOf('/')) : "";
        return x.kind().equals(ref.kind()) && (group.equals(ref.group()) || x.apiVersion().startsWith("karpenter.sh/")
                && ref.group().equals("karpenter.k8s.aws"));
    }

    private NodeClass find(NodePool.NodeClassRef ref) {
        return find(ref.group(), ref.kind(), ref.name());
    }

    private NodeClass find(String group, String kind, String name) {
        for (NodeClass c : r.nodeClasses) {
            if (c.group().equals(group) && c.kind().equals(kind) && c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    private void replacePool(String poolName, String nodeClassName) {
        for (int i = 0; i < r.nodePools.size(); i++) {
            NodePool p = r.nodePools.get(i);
            if (p.name().equals(poolName)) {
                NodePool.Template t = p.template();
                NodePool.Template nt = new NodePool.Template(t.labels(), t.annotations(), t.taints(), t.startupTaints(),
                        t.requirements(), new NodePool.NodeClassRef(t.nodeClassRef().group(), t.nodeClassRef().kind(),
                        nodeClassName), t.expireAfter(), t.terminationGracePeriod());
                r.nodePools.set(i, new NodePool(p.name(), p.annotations(), nt, p.disruption(), p.limits(), p.weight(),
                        p.convertedFrom(), p.replicas()));
            }
        }
    }
}
