package dev.gantry.handlers.attach;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.source.Diagnostic;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Seeds the cluster with the deploy bundle ({@code cdk deploy -c config=FILE}): the cluster is the source of truth for
 * configuration, and the bundle is applied to it at each deploy, never read by a handler. The bundle is first read
 * with {@link ConfigLoader}, exactly as {@code gantry validate} reads it; any error fails the deploy with each
 * problem's {@code file:line:column}. Then its {@code karpenter.k8s.aws/v1} EC2NodeClasses, {@code karpenter.sh/v1}
 * NodePools, {@code v1} PodTemplates, {@code autoscaling.x-k8s.io/v1beta1} CapacityBuffers and {@code karpenter.sh/v1alpha1}
 * NodeOverlays are server-side applied,
 * in that order, with field manager {@value #FIELD_MANAGER} and without force:
 * <ul>
 *   <li>a field another manager (kubectl, Argo CD) owns with a different value keeps the cluster's value: the API
 *       server refuses the apply with a conflict, which is reported, and the object is applied again without the
 *       conflicting fields (when each is a plain map path; otherwise the object is left as the cluster has it);</li>
 *   <li>an object dropped from the bundle is never deleted: the cluster's objects outlive any deploy;</li>
 *   <li>other kinds and older schemas (a {@code v1beta1} NodePool, a Provisioner, workloads) are not applied, and are
 *       reported: apply them, converted, with kubectl;</li>
 *   <li>when the user named Gantry's NodePools (coexistence), only those NodePools are applied.</li>
 * </ul>
 * Applying the same bundle twice changes nothing (server-side apply is idempotent).
 */
final class BundleApply {
    static final String FIELD_MANAGER = "gantry-deploy";
    /** Apply order: classes before the pools that name them, templates before the buffers that refer to them. */
    static final List<String> APPLIED = List.of("karpenter.k8s.aws/v1 EC2NodeClass", "karpenter.sh/v1 NodePool",
            "v1 PodTemplate", "autoscaling.x-k8s.io/v1beta1 CapacityBuffer", "karpenter.sh/v1alpha1 NodeOverlay");
    /** Each applied type named in full (in {@link #APPLIED}'s order), so the client needs no API discovery. */
    private static final List<ResourceDefinitionContext> CONTEXTS = List.of(
            context("karpenter.k8s.aws", "v1", "EC2NodeClass", "ec2nodeclasses", false),
            context("karpenter.sh", "v1", "NodePool", "nodepools", false),
            context("", "v1", "PodTemplate", "podtemplates", true),
            context("autoscaling.x-k8s.io", "v1beta1", "CapacityBuffer", "capacitybuffers", true),
            context("karpenter.sh", "v1alpha1", "NodeOverlay", "nodeoverlays", false));
    private static final Set<String> SERVER_FIELDS = Set.of("resourceVersion", "uid", "creationTimestamp", "generation",
            "managedFields", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds");
    private static final Pattern PLAIN_PATH = Pattern.compile("(\\.[A-Za-z0-9_\\-/]+)+");

    /** What one apply did, for the attach report. */
    record Outcome(List<String> applied, List<String> conflicts, List<String> skipped) {
    }

    private final KubernetesClient client;

    BundleApply(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Validates the bundle, then fails before applying anything when it has errors.
     *
     * @throws IllegalArgumentException listing every error as {@code file:line:column: object/field: message}
     */
    static void validate(String label, String yaml) {
        LoadResult r = ConfigLoader.loadString(label, yaml, LoadOptions.DEFAULT);
        if (!r.ok()) {
            throw new IllegalArgumentException("the deploy bundle has errors, nothing was applied:\n"
                    + r.errors().stream().map(Diagnostic::toString).collect(Collectors.joining("\n")));
        }
    }

    /**
     * Applies a bundle already {@linkplain #validate validated}.
     *
     * @param gantryPools the NodePools Gantry manages, or empty for all of them
     */
    Outcome apply(String yaml, Set<String> gantryPools) {
        List<String> applied = new ArrayList<>();
        List<String> conflicts = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<HasMetadata> items = client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()
                .stream().filter(Objects::nonNull).toList();
        List<GenericKubernetesResource> toApply = new ArrayList<>();
        for (HasMetadata item : items) {
            String label = item.getKind() + "/" + item.getMetadata().getName();
            String type = item.getApiVersion() + " " + item.getKind();
            if (!APPLIED.contains(type)) {
                skipped.add(label + " (" + item.getApiVersion() + "): not applied, apply it with kubectl"
                        + (item.getKind().equals("NodePool") || item.getKind().equals("EC2NodeClass")
                        ? " once converted to " + APPLIED.stream().filter(t -> t.endsWith(" " + item.getKind())).findFirst()
                                .map(t -> t.substring(0, t.indexOf(' '))).orElse("") : ""));
            } else if (item.getKind().equals("NodePool") && !gantryPools.isEmpty()
                    && !gantryPools.contains(item.getMetadata().getName())) {
                skipped.add(label + ": not one of Gantry's NodePools (" + String.join(",", gantryPools) + ")");
            } else {
                toApply.add(clean(item));
            }
        }
        toApply.sort(Comparator.comparingInt(r -> APPLIED.indexOf(r.getApiVersion() + " " + r.getKind())));
        for (GenericKubernetesResource r : toApply) {
            String label = r.getKind() + "/" + (r.getMetadata().getNamespace() == null ? "" : r.getMetadata().getNamespace() + "/")
                    + r.getMetadata().getName();
            try {
                ssa(r);
                applied.add(label);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                List<String> fields = conflictFields(e);
                conflicts.add(label + ": kept the cluster's " + describe(e, fields));
                if (!fields.isEmpty() && fields.stream().allMatch(f -> PLAIN_PATH.matcher(f).matches())) {
                    fields.forEach(f -> remove(r.getAdditionalProperties(), f.substring(1).split("\\.")));
                    try {
                        ssa(r);
                        applied.add(label + " (without those fields)");
                    } catch (KubernetesClientException again) {
                        if (again.getCode() != 409) {
                            throw again;
                        }
                    }
                }
            }
        }
        return new Outcome(applied, conflicts, skipped);
    }

    private static ResourceDefinitionContext context(String group, String version, String kind, String plural,
                                                     boolean namespaced) {
        return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withKind(kind)
                .withPlural(plural).withNamespaced(namespaced).build();
    }

    private void ssa(GenericKubernetesResource r) {
        ResourceDefinitionContext context = CONTEXTS.get(APPLIED.indexOf(r.getApiVersion() + " " + r.getKind()));
        var resources = client.genericKubernetesResources(context);
        var one = context.isNamespaceScoped() ? resources.inNamespace(r.getMetadata().getNamespace()).resource(r)
                : resources.resource(r);
        one.patch(new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
                .withFieldManager(FIELD_MANAGER).withForce(false).build());
    }

    /** The object as the bundle wrote it, less what only the API server sets (a bundle may come from {@code kubectl get}). */
    private static GenericKubernetesResource clean(HasMetadata item) {
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = Serialization.jsonMapper().convertValue(item, Map.class);
        tree.remove("status");
        if (tree.get("metadata") instanceof Map<?, ?> meta) {
            SERVER_FIELDS.forEach(meta::remove);
            if (item.getKind().equals("PodTemplate") || item.getKind().equals("CapacityBuffer")) {
                @SuppressWarnings("unchecked")
                Map<String, Object> m = (Map<String, Object>) meta;
                m.putIfAbsent("namespace", "default");
            }
        }
        return Serialization.jsonMapper().convertValue(tree, GenericKubernetesResource.class);
    }

    private static List<String> conflictFields(KubernetesClientException e) {
        if (e.getStatus() == null || e.getStatus().getDetails() == null) {
            return List.of();
        }
        return e.getStatus().getDetails().getCauses().stream().map(StatusCause::getField).filter(Objects::nonNull).toList();
    }

    private static String describe(KubernetesClientException e, List<String> fields) {
        if (e.getStatus() == null || e.getStatus().getDetails() == null || e.getStatus().getDetails().getCauses().isEmpty()) {
            return "object (apply conflict: " + (e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage()) + ")";
        }
        return e.getStatus().getDetails().getCauses().stream()
                .map(c -> c.getField() + " (" + c.getMessage() + ")").collect(Collectors.joining(", "));
    }

    @SuppressWarnings("unchecked")
    private static void remove(Map<String, Object> tree, String[] path) {
        Map<String, Object> at = tree;
        for (int i = 0; i < path.length - 1; i++) {
            if (!(at.get(path[i]) instanceof Map<?, ?> next)) {
                return;
            }
            at = (Map<String, Object>) next;
        }
        at.remove(path[path.length - 1]);
    }
}
