package dev.gantry.kube;

import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.EvictionResult;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.kube.objects.DaemonSetMapper;
import dev.gantry.kube.objects.NodeMapper;
import dev.gantry.kube.objects.PdbMapper;
import dev.gantry.kube.objects.PodMapper;
import dev.gantry.kube.objects.Selectors;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The cluster ports over a fabric8 client; every object is mapped by {@code dev.gantry.kube.objects}, as dumps and
 * manifests are. Lists are read in pages of {@value #PAGE_SIZE} (20,000 pods are about
 * 40 MB of JSON, too much for one response within the request timeout). Node patches are JSON patches guarded by the node's
 * resourceVersion; evictions go through policy/v1 without in-process retries, because the product retries through
 * SQS. Every fabric8 failure surfaces as a {@link ClusterException} ({@link ApiCall}).
 */
public final class KubeCluster implements ClusterReader, ClusterWriter {
    static final long PAGE_SIZE = 500;

    private final KubernetesClient client;
    private final NamespacedKubernetesClient noRetry;
    private final EventRecorder events;

    /**
     * @param client a client from {@link KubeClients}; its retry settings apply to everything but evictions
     * @param clock  stamps the Events this writes
     */
    public KubeCluster(KubernetesClient client, Clock clock) {
        this.client = client;
        this.noRetry = client.adapt(NamespacedKubernetesClient.class);
        this.events = new EventRecorder(client, clock);
    }

    /** The NodeClaim objects over the same client, sharing this adapter's Events (which learn the objects' UIDs). */
    public KubeNodeClaims nodeClaimObjects() {
        return new KubeNodeClaims(client, events);
    }

    // --- ClusterReader ---

    @Override
    public List<Pod> pods() {
        return pods("list pods", null);
    }

    /** One field-selected list ({@code spec.nodeName=<node>}), so a drain's read does not grow with the cluster. */
    @Override
    public List<Pod> podsOn(String node) {
        return pods("list pods on node " + node, "spec.nodeName=" + node);
    }

    private List<Pod> pods(String what, String fieldSelector) {
        List<Pod> out = new ArrayList<>();
        Map<String, String> uids = new HashMap<>();
        each(what, fieldSelector, o -> client.pods().inAnyNamespace().list(o), p -> {
            Pod pod = PodMapper.pod(p);
            if (p.getMetadata().getUid() != null) {
                uids.put(EventRecorder.key(pod.namespace(), pod.name()), p.getMetadata().getUid());
            }
            out.add(pod);
        });
        if (fieldSelector == null) {
            events.rememberAll("Pod", uids);
        } else {
            events.rememberSome("Pod", uids);
        }
        return out;
    }

    @Override
    public List<Node> nodes() {
        List<Node> out = new ArrayList<>();
        Map<String, String> uids = new HashMap<>();
        each("list nodes", null, o -> client.nodes().list(o), n -> {
            if (n.getMetadata().getUid() != null) {
                uids.put(EventRecorder.key(null, n.getMetadata().getName()), n.getMetadata().getUid());
            }
            out.add(NodeMapper.node(n));
        });
        events.rememberAll("Node", uids);
        return out;
    }

    /** A single GET of the node, not a list. */
    @Override
    public Optional<Node> findNode(String name) {
        io.fabric8.kubernetes.api.model.Node n = ApiCall.run("get node " + name, () -> client.nodes().withName(name).get());
        if (n == null) {
            return Optional.empty();
        }
        if (n.getMetadata().getUid() != null) {
            events.rememberSome("Node", Map.of(EventRecorder.key(null, n.getMetadata().getName()), n.getMetadata().getUid()));
        }
        return Optional.of(NodeMapper.node(n));
    }

    @Override
    public List<DaemonSet> daemonSets() {
        return list("list daemonsets", o -> client.apps().daemonSets().inAnyNamespace().list(o)).stream()
                .map(DaemonSetMapper::daemonSet).toList();
    }

    @Override
    public List<PodDisruptionBudget> podDisruptionBudgets() {
        return list("list poddisruptionbudgets", o -> client.policy().v1().podDisruptionBudget().inAnyNamespace().list(o))
                .stream().map(PdbMapper::pdb).toList();
    }

    @Override
    public Set<String> nodesWithVolumeAttachments() {
        Set<String> out = new HashSet<>();
        for (var va : list("list volumeattachments", o -> client.storage().v1().volumeAttachments().list(o))) {
            if (va.getSpec() != null && va.getSpec().getNodeName() != null) {
                out.add(va.getSpec().getNodeName());
            }
        }
        return out;
    }

    @Override
    public Map<String, Map<String, String>> namespaceLabels() {
        Map<String, Map<String, String>> out = new HashMap<>();
        for (var ns : list("list namespaces", o -> client.namespaces().list(o))) {
            out.put(ns.getMetadata().getName(), Selectors.nonNull(ns.getMetadata().getLabels()));
        }
        return out;
    }

    // --- ClusterWriter ---

    @Override
    public void patchNode(String name, NodePatch patch) {
        try {
            patchOnce(name, patch);
        } catch (ClusterException e) {
            // 409: someone changed the node since it was read; recompute once from a fresh copy.
            if (e.status() != 409) {
                throw e;
            }
            patchOnce(name, patch);
        }
    }

    private void patchOnce(String name, NodePatch patch) {
        var current = ApiCall.run("get node " + name, () -> client.nodes().withName(name).get());
        if (current == null) {
            throw new ClusterException(404, "get node " + name + " failed (404): not found", null);
        }
        List<Map<String, Object>> ops = NodeJsonPatch.of(current, patch);
        if (!ops.isEmpty()) {
            String json = client.getKubernetesSerialization().asJson(ops);
            ApiCall.run("patch node " + name, () -> client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON), json));
        }
    }

    @Override
    public EvictionResult evict(Pod pod) {
        Eviction eviction = new EvictionBuilder()
                .withNewMetadata().withNamespace(pod.namespace()).withName(pod.name()).endMetadata()
                // The UID precondition keeps a same-named successor (a StatefulSet's) from being evicted by mistake.
                .withDeleteOptions(realUid(pod) == null ? null
                        : new DeleteOptionsBuilder().withNewPreconditions().withUid(realUid(pod)).endPreconditions().build())
                .build();
        try {
            // A 429 from a PodDisruptionBudget is an answer, not a fault: fabric8 would otherwise back off for ~19 s.
            boolean evicted = noRetry.withRequestConfig(new RequestConfigBuilder().withRequestRetryBackoffLimit(0).build())
                    .call(c -> c.pods().inNamespace(pod.namespace()).withName(pod.name()).evict(eviction));
            return evicted ? EvictionResult.EVICTED : EvictionResult.BLOCKED_BY_PDB;
        } catch (KubernetesClientException e) {
            return switch (e.getCode()) {
                case 429 -> EvictionResult.BLOCKED_BY_PDB;
                // 409: the UID precondition failed, so the pod we meant is gone (Karpenter reads it the same way).
                case 404, 409 -> EvictionResult.NOT_FOUND;
                default -> throw ApiCall.translate("evict pod " + pod.key(), e);
            };
        }
    }

    @Override
    public void deletePod(Pod pod) {
        Long grace = pod.status().terminationGracePeriodSeconds();
        ApiCall.run("delete pod " + pod.key(), () -> {
            var r = client.pods().inNamespace(pod.namespace()).withName(pod.name());
            return grace == null ? r.delete() : r.withGracePeriod(grace).delete();
        });
    }

    @Override
    public void deleteNode(String name) {
        ApiCall.run("delete node " + name, () -> client.nodes().withName(name).delete());
    }

    @Override
    public void event(String kind, String namespace, String name, String type, String reason, String message) {
        events.record(kind, namespace, name, type, reason, message);
    }

    // --- helpers ---

    /** Every item, page by page, following the API server's continue token. */
    private <T extends io.fabric8.kubernetes.api.model.HasMetadata, L extends KubernetesResourceList<T>> List<T> list(
            String what, Function<ListOptions, L> page) {
        List<T> out = new ArrayList<>();
        each(what, null, page, out::add);
        return out;
    }

    /**
     * Every item, page by page, with a field selector (null for none) sent on every page; each page's items are handed
     * to {@code item} as the page arrives and the page is dropped before the next is asked for, so a list of 100,000
     * pods never holds more than one page of fabric8 objects (about 500 of them) beside what {@code item} keeps.
     */
    private <T extends io.fabric8.kubernetes.api.model.HasMetadata, L extends KubernetesResourceList<T>> void each(
            String what, String fieldSelector, Function<ListOptions, L> page, Consumer<T> item) {
        String token = null;
        do {
            ListOptions options = new ListOptionsBuilder().withLimit(PAGE_SIZE).withContinue(token)
                    .withFieldSelector(fieldSelector).build();
            L result = ApiCall.run(what, () -> page.apply(options));
            result.getItems().forEach(item);
            token = result.getMetadata() == null ? null : result.getMetadata().getContinue();
        } while (token != null && !token.isEmpty());
    }

    /** The pod's API server UID, or null when the core defaulted it to the pod's key (a pod not read from a cluster). */
    private static String realUid(Pod pod) {
        return pod.uid().equals(pod.key()) ? null : pod.uid();
    }
}
