package dev.gantry.simulator.world.kube;

import dev.gantry.core.status.NodeClaimObject;
import dev.gantry.core.status.NodeClaimObjects;
import dev.gantry.core.status.NodeClassStatus;
import dev.gantry.core.status.ObservedNodeClaim;
import dev.gantry.core.status.PoolStatus;
import dev.gantry.core.status.StatusObjects;
import dev.gantry.simulator.runtime.CallKind;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The API server's {@code karpenter.sh} and {@code karpenter.k8s.aws} objects as Gantry's ports reach them: NodeClaims
 * (projected by the sweep), and NodePools and EC2NodeClasses (status only). Each request goes through the
 * {@link ApiServer} (outages, injected 429/5xx, client retry, latency) and is counted.
 *
 * <p>What the API server does that matters here: every write bumps the object's resourceVersion, and a write naming an
 * older one fails with 409 ({@link NodeClaimObjects.Stale}); a create of an existing name fails with 409; status is
 * written only through the status subresource, and a create's status is dropped; a delete of an object with
 * finalizers only sets its deletionTimestamp, and the object goes when its last finalizer is removed; no finalizer may
 * be added to an object being deleted.
 *
 * <p>Not modelled: schema validation and CEL (the kube module's tests check the objects against the CRDs), the spec's
 * immutability rule (Gantry never writes a spec after creation), label merging (labels are replaced whole: Gantry
 * owns every label it writes here).
 */
public final class KarpenterObjects implements NodeClaimObjects, StatusObjects {
    /** One stored NodeClaim. */
    private static final class Claim {
        long resourceVersion;
        String digest;
        List<String> finalizers;
        Instant deletionTimestamp;
        NodeClaimObject object;
    }

    private static final class WithStatus<T> {
        long resourceVersion = 1;
        /** metadata.generation: 1 when created, one more for each spec change (a write of the configuration). */
        long generation = 1;
        T status;
    }

    private final ApiServer api;
    private final Clock clock;
    private final Map<String, Claim> claims = new TreeMap<>();
    private final Map<String, WithStatus<PoolStatus>> pools = new TreeMap<>();
    private final Map<String, WithStatus<NodeClassStatus>> classes = new TreeMap<>();
    private long version = 1;
    private int requests;
    /** Requests by the virtual minute they were made in (a sweep's writes fall in one minute). */
    private final Map<Long, Integer> byMinute = new TreeMap<>();

    public KarpenterObjects(ApiServer api, Clock clock, List<String> nodePools, List<String> nodeClasses) {
        this.api = api;
        this.clock = clock;
        nodePools.forEach(p -> pools.put(p, new WithStatus<>()));
        nodeClasses.forEach(c -> classes.put(c, new WithStatus<>()));
    }

    /**
     * Follows a configuration write ({@code Kind/name}): a NodePool or EC2NodeClass applied gains an object here (no
     * status yet), one deleted loses it. Other kinds are not Karpenter's v1 objects and are ignored.
     */
    public synchronized void configWritten(String key, boolean deleted) {
        int slash = key.indexOf('/');
        String kind = slash < 0 ? key : key.substring(0, slash);
        String name = key.substring(slash + 1);
        Map<String, ? extends WithStatus<?>> objects = switch (kind) {
            case "NodePool" -> pools;
            case "EC2NodeClass" -> classes;
            default -> null;
        };
        if (objects == null) {
            return;
        }
        if (deleted) {
            objects.remove(name);
            return;
        }
        WithStatus<?> existing = objects.get(name);
        if (existing != null) {
            existing.generation++; // the API server moves metadata.generation on a spec change
            existing.resourceVersion = ++version;
        } else if (kind.equals("NodePool")) {
            pools.put(name, new WithStatus<>());
        } else {
            classes.put(name, new WithStatus<>());
        }
    }

    /** Requests made through these ports so far. */
    public synchronized int requests() {
        return requests;
    }

    /** The most requests made in one minute (one sweep's steps, and any other minute's). */
    public synchronized int mostInAMinute() {
        return byMinute.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    private void count(int n) {
        requests += n;
        byMinute.merge(clock.instant().getEpochSecond() / 60, n, Integer::sum);
    }

    /** How many NodeClaim objects exist now (deleting ones included). */
    public synchronized int nodeClaims() {
        return claims.size();
    }

    /** The stored NodeClaim (null when none), for checks. */
    public synchronized NodeClaimObject nodeClaim(String name) {
        Claim c = claims.get(name);
        return c == null ? null : c.object;
    }

    /** The stored status of a NodePool (null before the first write), for checks and the summary. */
    public synchronized PoolStatus nodePoolStatus(String name) {
        WithStatus<PoolStatus> p = pools.get(name);
        return p == null ? null : p.status;
    }

    /** {@code kubectl delete nodeclaim}: a deletionTimestamp while finalizers hold it, gone otherwise. */
    public synchronized void userDeletes(String name) {
        Claim c = claims.get(name);
        if (c != null) {
            markDeleted(name, c);
        }
    }

    private <T> T request(CallKind kind, String what, Supplier<T> body) {
        synchronized (this) {
            count(1);
        }
        return api.call(kind, what, () -> {
            synchronized (this) {
                return body.get();
            }
        });
    }

    @Override
    public List<ObservedNodeClaim> list() {
        synchronized (this) {
            count(Math.max(1, (claims.size() + ApiServer.PAGE_SIZE - 1) / ApiServer.PAGE_SIZE));
        }
        return api.listOf("nodeclaims", () -> {
            synchronized (this) {
                List<ObservedNodeClaim> out = new ArrayList<>();
                claims.forEach((name, c) -> out.add(new ObservedNodeClaim(name, Long.toString(c.resourceVersion), c.digest,
                        c.finalizers, c.deletionTimestamp, c.object.status().conditions().size() > 0)));
                return out;
            }
        });
    }

    @Override
    public void create(NodeClaimObject object) {
        Claim created = request(CallKind.KUBE_PATCH, "create nodeclaim " + object.name(), () -> {
            if (claims.containsKey(object.name())) {
                throw new Stale("nodeclaims \"" + object.name() + "\" already exists");
            }
            Claim c = new Claim();
            c.resourceVersion = ++version;
            c.digest = object.digest();
            c.finalizers = List.of(NodeClaimObject.FINALIZER);
            c.object = new NodeClaimObject(object.name(), object.labels(), object.annotations(), object.nodeClassRef(), object.requirements(),
                    object.expireAfter(), new NodeClaimObject.Status(null, null, null, null, null, null)); // status dropped
            claims.put(object.name(), c);
            return c;
        });
        writeStatus(new ObservedNodeClaim(object.name(), Long.toString(created.resourceVersion), created.digest,
                created.finalizers, null, false), object);
    }

    /** The status subresource: the status only, guarded by the resourceVersion; null when the object is gone. */
    private Long writeStatus(ObservedNodeClaim observed, NodeClaimObject object) {
        return request(CallKind.KUBE_PATCH, "patch nodeclaim " + observed.name() + " status", () -> {
            Claim c = current(observed);
            if (c == null) {
                return null;
            }
            c.object = new NodeClaimObject(c.object.name(), c.object.labels(), c.object.annotations(), c.object.nodeClassRef(),
                    c.object.requirements(), c.object.expireAfter(), object.status());
            c.resourceVersion = ++version;
            return c.resourceVersion;
        });
    }

    @Override
    public void update(ObservedNodeClaim observed, NodeClaimObject object) {
        Long afterStatus = writeStatus(observed, object);
        if (afterStatus == null) {
            return;
        }
        request(CallKind.KUBE_PATCH, "patch nodeclaim " + observed.name(), () -> {
            Claim c = claims.get(observed.name());
            if (c == null) {
                return null;
            }
            c.object = new NodeClaimObject(c.object.name(), object.labels(), object.annotations(), c.object.nodeClassRef(),
                    c.object.requirements(), c.object.expireAfter(), c.object.status());
            c.digest = object.digest();
            if (!c.finalizers.contains(NodeClaimObject.FINALIZER) && c.deletionTimestamp == null) {
                List<String> with = new ArrayList<>(c.finalizers);
                with.add(NodeClaimObject.FINALIZER);
                c.finalizers = List.copyOf(with);
            }
            c.resourceVersion = ++version;
            return c;
        });
    }

    @Override
    public void removeFinalizer(ObservedNodeClaim observed) {
        request(CallKind.KUBE_PATCH, "patch nodeclaim " + observed.name(), () -> {
            Claim c = current(observed);
            if (c == null) {
                return null;
            }
            c.finalizers = c.finalizers.stream().filter(f -> !f.equals(NodeClaimObject.FINALIZER)).toList();
            c.resourceVersion = ++version;
            if (c.finalizers.isEmpty() && c.deletionTimestamp != null) {
                claims.remove(observed.name());
            }
            return c;
        });
    }

    @Override
    public void delete(String name) {
        request(CallKind.KUBE_DELETE, "delete nodeclaim " + name, () -> {
            Claim c = claims.get(name);
            if (c != null) {
                markDeleted(name, c);
            }
            return c;
        });
    }

    private void markDeleted(String name, Claim c) {
        if (c.finalizers.isEmpty()) {
            claims.remove(name);
        } else if (c.deletionTimestamp == null) {
            c.deletionTimestamp = clock.instant();
            c.resourceVersion = ++version;
        }
    }

    /** The stored claim if {@code observed} is still its version: 409 otherwise, null when gone. */
    private Claim current(ObservedNodeClaim observed) {
        Claim c = claims.get(observed.name());
        if (c != null && !Long.toString(c.resourceVersion).equals(observed.resourceVersion())) {
            throw new Stale("the object has been modified; please apply your changes to the latest version and try again");
        }
        return c;
    }

    @Override
    public List<Observed<PoolStatus>> nodePools() {
        return observed("nodepools", pools);
    }

    @Override
    public List<Observed<NodeClassStatus>> nodeClasses() {
        return observed("ec2nodeclasses", classes);
    }

    @Override
    public void writeNodePool(Observed<PoolStatus> observed, PoolStatus status) {
        writeStatus("nodepool", pools, observed, status);
    }

    @Override
    public void writeNodeClass(Observed<NodeClassStatus> observed, NodeClassStatus status) {
        writeStatus("ec2nodeclass", classes, observed, status);
    }

    private <T> List<Observed<T>> observed(String what, Map<String, WithStatus<T>> objects) {
        synchronized (this) {
            count(1);
        }
        return api.listOf(what, () -> {
            synchronized (this) {
                List<Observed<T>> out = new ArrayList<>();
                objects.forEach((name, o) -> out.add(new Observed<>(name, Long.toString(o.resourceVersion), o.generation, o.status)));
                return out;
            }
        });
    }

    private <T> void writeStatus(String what, Map<String, WithStatus<T>> objects, Observed<T> observed, T status) {
        request(CallKind.KUBE_PATCH, "patch " + what + " " + observed.name() + " status", () -> {
            WithStatus<T> o = objects.get(observed.name());
            if (o == null) {
                return null;
            }
            if (!Long.toString(o.resourceVersion).equals(observed.resourceVersion())) {
                throw new Stale("the object has been modified");
            }
            o.status = status;
            o.resourceVersion = ++version;
            return o;
        });
    }
}
