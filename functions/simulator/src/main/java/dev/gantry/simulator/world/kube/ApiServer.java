package dev.gantry.simulator.world.kube;

import dev.gantry.simulator.faults.FaultPlan;
import dev.gantry.simulator.faults.Faults;
import dev.gantry.simulator.runtime.CallKind;
import dev.gantry.simulator.runtime.LambdaRuntime;
import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.EvictionResult;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.config.ConfigObject;
import dev.gantry.core.config.ConfigObjects;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The API server as Gantry's services reach it: the in-memory cluster behind the same ports, plus what a real API
 * server adds around a call. It can be down (every call fails with status 0, retryable), it calls the webhook on node
 * deletions, it hands Gantry's evictions to the invariant checks (a PDB or do-not-disrupt pod must never be evicted),
 * and it records Events for the timeline.
 *
 * <p>As our client ({@code KubeCluster} over fabric8, configured by {@code KubeClients}) sees it: each request made
 * from an invocation costs its latency ({@link CallKind}); a list is read in pages of {@value #PAGE_SIZE} items, each
 * page a request; {@code podsOn} and {@code findNode} are one field-selected list and one GET, not a filtered full
 * list. A request that gets 429 (with {@code Retry-After: 1}) or a 5xx is retried once by the client, after the
 * longer of its 200 ms backoff and Retry-After, then surfaces as a retryable {@link ClusterException}. A partial
 * list: a later page of a multi-page list fails with 410 Gone (the continue token expired), which is what the port
 * surfaces (not retryable by {@link ClusterException#retryable()}, but the queue retries the batch); a list that fits
 * one page cannot be partial. Evictions are sent without client retries, and any 429 on one (priority and fairness
 * as much as a PodDisruptionBudget) reads as {@link EvictionResult#BLOCKED_BY_PDB}, as {@code KubeCluster} does.
 *
 * <p>NodePools and NodeClasses live in its {@link ConfigStore} (with resourceVersions), listed by
 * {@link #configObjects()} as the kube adapter lists them.
 *
 * <p>Not modelled: API priority and fairness queueing (429s come from a per-request draw, not from load), watch
 * caches and resourceVersion semantics for pods and nodes (every read is fresh and consistent), CRD schema and CEL
 * validation of configuration objects ({@link ConfigStore} stores what it is given), request timeouts shorter than an outage
 * (a call during an outage fails at once, as a refused connection does), admission webhooks.
 */
public final class ApiServer implements ClusterReader, ClusterWriter {
    /** Sees what Gantry asks of the cluster. */
    public interface Observer {
        void evicting(Pod pod, List<PodDisruptionBudget> pdbs);

        void evicted(Pod pod);

        void event(String kind, String name, String type, String reason, String message);
    }

    private final InMemoryCluster cluster;
    private final Clock clock;
    private final dev.gantry.core.cluster.EventDedupe eventDedupe = new dev.gantry.core.cluster.EventDedupe();
    private final Observer observer;
    private Webhook webhook;
    private Instant downUntil = Instant.MIN;
    static final int PAGE_SIZE = 500;
    private static final Duration CLIENT_BACKOFF = Duration.ofMillis(200);
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);
    private LambdaRuntime runtime;
    private Faults faults = new Faults(FaultPlan.NONE, 0);
    private final ConfigStore config = new ConfigStore();

    public ApiServer(InMemoryCluster cluster, Clock clock, Observer observer) {
        this.cluster = cluster;
        this.clock = clock;
        this.observer = observer;
    }

    /** The NodePools and NodeClasses the cluster holds (scenario events write them; Gantry lists them). */
    public ConfigStore config() {
        return config;
    }

    /**
     * The configuration's lists as {@code KubeConfigObjects} makes them: EC2NodeClasses, NodePools, CapacityBuffers
     * (none here: the scenario's buffers are the headroom's), each a list request with its latency and faults.
     */
    public ConfigObjects configObjects() {
        return () -> {
            List<ConfigObject> out = new java.util.ArrayList<>();
            out.addAll(list("ec2nodeclasses", () -> config.list().stream().filter(o -> !o.kind().equals("NodePool")).toList()));
            out.addAll(list("nodepools", () -> config.list().stream().filter(o -> o.kind().equals("NodePool")).toList()));
            list("capacitybuffers", List::<ConfigObject>of);
            return out;
        };
    }

    public void webhook(Webhook w) {
        this.webhook = w;
    }

    public void downUntil(Instant until) {
        downUntil = until;
    }

    /** When the latest outage ended (or ends); {@link Instant#MIN} if there was none. */
    public Instant downUntil() {
        return downUntil;
    }

    public boolean isDown() {
        return clock.instant().isBefore(downUntil);
    }

    /** Requests from invocations cost time on {@code r}; {@code f} injects the fault plan's API-server faults. */
    public void runtime(LambdaRuntime r, Faults f) {
        this.runtime = r;
        this.faults = f;
    }

    private void check() {
        if (isDown()) {
            throw new ClusterException(0, "the API server is unreachable (simulated outage)", null);
        }
    }

    /** One request as the client makes it: the outage, injected 429/5xx, one client retry, the latency. */
    private <T> T request(CallKind kind, String what, Supplier<T> body, java.util.function.ToIntFunction<T> items) {
        return request(kind, what, body, items, 2);
    }

    private <T> T request(CallKind kind, String what, Supplier<T> body, java.util.function.ToIntFunction<T> items,
                          int attempts) {
        for (int attempt = 1; ; attempt++) {
            try {
                Supplier<T> once = () -> {
                    check();
                    if (faults.targetedError()) {
                        throw new Targeted(what);
                    }
                    if (faults.draw("apiThrottle", faults.plan().kubeApi().throttle())) {
                        throw new ClusterException(429, what + " failed (429): Too Many Requests (Retry-After: 1)", null);
                    }
                    if (faults.draw("apiError", faults.plan().kubeApi().error())) {
                        int status = faults.stream("apiErrorStatus").nextBoolean() ? 500 : 503;
                        throw new ClusterException(status, what + " failed (" + status + "): "
                                + (status == 500 ? "Internal Server Error" : "Service Unavailable"), null);
                    }
                    return body.get();
                };
                return runtime == null ? once.get() : runtime.call(kind, once, items);
            } catch (Targeted t) {
                throw t;
            } catch (ClusterException e) {
                if (attempt >= attempts || !(e.status() == 429 || e.status() >= 500)) {
                    throw e;
                }
                if (runtime != null) {
                    runtime.sleep(e.status() == 429 ? RETRY_AFTER : CLIENT_BACKOFF);
                }
            }
        }
    }

    /** A targeted fault: every attempt of one request fails (503), retries included. */
    private static final class Targeted extends ClusterException {
        Targeted(String what) {
            super(503, what + " failed (503): Service Unavailable (injected at this call)", null);
        }
    }

    /** A list read page by page: each page a request; a later page may fail with 410 Gone (a partial list). */
    private <T> List<T> list(String what, Supplier<? extends Collection<T>> all) {
        List<T> items = request(CallKind.KUBE_LIST, "list " + what, () -> List.copyOf(all.get()),
                l -> Math.min(l.size(), PAGE_SIZE));
        int pages = Math.max(1, (items.size() + PAGE_SIZE - 1) / PAGE_SIZE);
        for (int page = 2; page <= pages; page++) {
            int size = Math.min(PAGE_SIZE, items.size() - (page - 1) * PAGE_SIZE);
            request(CallKind.KUBE_LIST, "list " + what, () -> {
                if (faults.draw("partialList", faults.plan().kubeApi().partialList())) {
                    throw new ClusterException(410, "list " + what + " failed (410): The provided continue parameter is "
                            + "too old to display a consistent list result. You can start a new list without the "
                            + "continue parameter.", null);
                }
                return size;
            }, n -> n);
        }
        return items;
    }

    /** One request for other objects (NodeClaims, status): the same outage, faults, client retry and latency. */
    public <T> T call(CallKind kind, String what, Supplier<T> body) {
        return request(kind, what, body, x -> 0);
    }

    /** A paged list of other objects, as {@link #pods()} is read. */
    public <T> List<T> listOf(String what, Supplier<? extends Collection<T>> all) {
        return list(what, all);
    }

    @Override
    public List<Pod> pods() {
        tally("pods");
        return list("pods", cluster::pods);
    }

    @Override
    public List<Pod> podsOn(String node) {
        return list("pods (spec.nodeName=" + node + ")", () -> cluster.podsOn(node));
    }

    @Override
    public List<Node> nodes() {
        tally("nodes");
        return list("nodes", cluster::nodes);
    }

    /** A whole list of {@code what}, as {@link ReadTally} counts them. */
    private void tally(String what) {
        if (runtime != null) {
            runtime.reads().listed(what);
        }
    }

    /** A write that may change the pods or nodes finished (whether or not it took). */
    private void written() {
        if (runtime != null) {
            runtime.reads().written("pods", "nodes");
        }
    }

    @Override
    public Optional<Node> findNode(String name) {
        return request(CallKind.KUBE_GET, "get node " + name, () -> Optional.ofNullable(cluster.node(name)), o -> 0);
    }

    @Override
    public List<DaemonSet> daemonSets() {
        return list("daemonsets", cluster::daemonSets);
    }

    @Override
    public List<PodDisruptionBudget> podDisruptionBudgets() {
        return list("poddisruptionbudgets", cluster::podDisruptionBudgets);
    }

    @Override
    public Set<String> nodesWithVolumeAttachments() {
        return Set.copyOf(list("volumeattachments", cluster::nodesWithVolumeAttachments));
    }

    @Override
    public Map<String, Map<String, String>> namespaceLabels() {
        return request(CallKind.KUBE_LIST, "list namespaces", cluster::namespaceLabels, Map::size);
    }

    @Override
    public void patchNode(String name, NodePatch patch) {
        // KubeCluster reads the node, then sends a JSON patch: two requests.
        try {
            request(CallKind.KUBE_GET, "get node " + name, () -> cluster.node(name), n -> 0);
            request(CallKind.KUBE_PATCH, "patch node " + name, () -> {
                cluster.patchNode(name, patch);
                return Boolean.TRUE;
            }, x -> 0);
        } finally {
            written();
        }
    }

    @Override
    public EvictionResult evict(Pod pod) {
        // KubeCluster evicts without client retries, and reads any 429 as a PodDisruptionBudget's refusal.
        try {
            return request(CallKind.KUBE_EVICT, "evict pod " + pod.key(), () -> evictNow(pod), x -> 0, 1);
        } catch (ClusterException e) {
            if (e.status() == 429) {
                return EvictionResult.BLOCKED_BY_PDB;
            }
            throw e;
        } finally {
            written();
        }
    }

    private EvictionResult evictNow(Pod pod) {
        Pod current = cluster.pod(pod.key());
        List<PodDisruptionBudget> pdbs = cluster.podDisruptionBudgets();
        // The checks judge evictions the API server lets through; one its PDB status refuses (429) evicts nothing.
        if (current != null && pdbs.stream().noneMatch(b -> b.covers(current) && b.disruptionsAllowed() <= 0)) {
            observer.evicting(current, pdbs);
        }
        EvictionResult r = cluster.evict(pod);
        if (r == EvictionResult.EVICTED) {
            observer.evicted(current);
        }
        return r;
    }

    @Override
    public void deletePod(Pod pod) {
        try {
            request(CallKind.KUBE_DELETE, "delete pod " + pod.key(), () -> {
                cluster.deletePod(pod);
                return Boolean.TRUE;
            }, x -> 0);
        } finally {
            written();
        }
    }

    @Override
    public void deleteNode(String name) {
        try {
            request(CallKind.KUBE_DELETE, "delete node " + name, () -> {
                deleteNodeNow(name);
                return Boolean.TRUE;
            }, x -> 0);
        } finally {
            written();
        }
    }

    private void deleteNodeNow(String name) {
        Node n = cluster.node(name);
        if (n == null) {
            return;
        }
        cluster.deleteNodeAt(name, clock.instant());
        if (webhook != null) {
            // The API server calls the webhook within the delete request, not the invocation.
            if (runtime != null) {
                runtime.detached(() -> webhook.nodeDeleted(n));
            } else {
                webhook.nodeDeleted(n);
            }
        }
    }

    @Override
    public void event(String kind, String namespace, String name, String type, String reason, String message) {
        if (!eventDedupe.admit(kind, namespace, name, reason, message, clock.instant())) {
            return; // a repeat the real recorder drops before any API call (EventDedupe; one recorder, as a warm sweep)
        }
        try {
            request(CallKind.KUBE_EVENT, "create event", () -> {
                cluster.event(kind, namespace, name, type, reason, message);
                observer.event(kind, (namespace == null ? "" : namespace + "/") + name, type, reason, message);
                return Boolean.TRUE;
            }, x -> 0);
        } catch (ClusterException e) {
            // Best effort, as the port says: the recorder swallows and logs.
        }
    }
}
