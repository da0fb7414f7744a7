package dev.gantry.core.status;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Resources;
import dev.gantry.core.provisioning.GantryConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The sweep's NodePool and EC2NodeClass status: one list of each kind, then a status write only for an object whose
 * status would change (a condition keeps its {@code lastTransitionTime} while its status holds).
 * <ul>
 *   <li>NodePool: {@code resources} = the summed capacity of its live claims and, under {@value PoolCost#RESOURCE},
 *       what they cost per hour ({@link PoolCost}), {@code nodes} = their number;
 *       {@code ValidationSucceeded} False when the configuration reader left the pool out with diagnostics (its
 *       messages), Unknown when it is not in the configuration for another reason; {@code NodeClassReady} from its
 *       NodeClass's {@code Ready}; {@code Ready} when both are True; {@code NodeRegistrationHealthy} from its claims'
 *       launches and registrations ({@link RegistrationHealth}), not part of {@code Ready}. Each condition carries the
 *       pool's generation, and the status its NodeClass's ({@code nodeClassObservedGeneration}).</li>
 *   <li>EC2NodeClass: subnets, security groups, AMIs and instance profile as {@link NodeClassResolver} resolves them;
 *       a {@code *Ready} condition for each (Unknown when the class was not resolved), {@code ValidationSucceeded}
 *       ({@link NodeClassReadiness#validation}), and {@code Ready} when all are True. Each condition carries the
 *       class's generation.</li>
 * </ul>
 * The configuration and the diagnostics are read per run (objects come and go); diagnostics are keyed
 * {@code Kind/name} ({@code NodePool/general}, {@code EC2NodeClass/default}). Every failure is logged and counted and
 * never fails the sweep.
 */
public final class StatusWriter {
    private static final System.Logger LOG = System.getLogger(StatusWriter.class.getName());

    /** What one sync did: status writes, and writes or reads that failed (the next sweep retries). */
    public record Report(int nodePoolsWritten, int nodeClassesWritten, int failed) {
    }

    private final StatusObjects objects;
    private final NodeClassResolver resolver;
    private final ClaimProjection.CapacityOf capacity;
    private final Supplier<GantryConfig> config;
    private final Supplier<Map<String, List<String>>> diagnostics;
    private OverlayStatusWriter overlays;

    /** NodeOverlay status too, written last in each sync ({@link OverlayStatusWriter}). */
    public StatusWriter withOverlays(OverlayStatusWriter writer) {
        this.overlays = writer;
        return this;
    }

    public StatusWriter(StatusObjects objects, NodeClassResolver resolver, ClaimProjection.CapacityOf capacity,
                        Supplier<GantryConfig> config, Supplier<Map<String, List<String>>> diagnostics) {
        this.objects = objects;
        this.resolver = resolver;
        this.capacity = capacity;
        this.config = config;
        this.diagnostics = diagnostics;
    }

    /** One sync over {@code claims} (the store's, read this sweep). Never throws. */
    public Report sync(List<NodeClaim> claims, Instant now) {
        int[] failed = {0};
        try {
            GantryConfig cfg = config.get();
            Map<String, List<String>> diag = diagnostics.get();
            Map<String, Optional<Condition>> classReady = new HashMap<>();
            Map<String, Long> classGenerations = new HashMap<>();
            int classes = 0;
            for (StatusObjects.Observed<NodeClassStatus> o : objects.nodeClasses()) {
                classGenerations.put(o.name(), o.generation());
                if (!ours("EC2NodeClass", o.name(), cfg.nodeClasses().stream().anyMatch(c -> c.name().equals(o.name())), diag)) {
                    continue;
                }
                NodeClassStatus want = nodeClass(o, cfg, diag, now);
                classReady.put(o.name(), Condition.find(want.conditions(), "Ready"));
                if (!want.equals(o.status()) && write(() -> objects.writeNodeClass(o, want), failed)) {
                    classes++;
                }
            }
            int pools = 0;
            Map<String, List<NodeClaim>> byPool = new HashMap<>();
            claims.forEach(c -> byPool.computeIfAbsent(c.nodePool(), k -> new ArrayList<>()).add(c));
            for (StatusObjects.Observed<PoolStatus> o : objects.nodePools()) {
                if (!ours("NodePool", o.name(), cfg.nodePool(o.name()).isPresent(), diag)) {
                    continue;
                }
                PoolStatus want = pool(o, cfg, diag, byPool.getOrDefault(o.name(), List.of()), classReady, classGenerations, now);
                if (!want.equals(o.status()) && write(() -> objects.writeNodePool(o, want), failed)) {
                    pools++;
                }
            }
            failed[0] += overlays == null ? 0 : overlays.sync(now).failed();
            return new Report(pools, classes, failed[0]);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "status not written, the next sweep retries: " + e);
            return new Report(0, 0, failed[0] + 1);
        }
    }

    /**
     * Whether Gantry writes this object's status: it is in the configuration, or the reader left it out with messages.
     * Any other object is another autoscaler's (EKS Auto Mode's pools, those not named in {@code GANTRY_NODE_POOLS}):
     * its status is not Gantry's to write.
     */
    private static boolean ours(String kind, String name, boolean configured, Map<String, List<String>> diag) {
        return configured || diag.containsKey(kind + "/" + name);
    }

    private NodeClassStatus nodeClass(StatusObjects.Observed<NodeClassStatus> o, GantryConfig cfg,
                                      Map<String, List<String>> diag, Instant now) {
        List<Condition> before = o.status() == null ? List.of() : o.status().conditions();
        List<String> problems = diag.getOrDefault("EC2NodeClass/" + o.name(), List.of());
        // The status objects are EC2NodeClasses: an EKS Auto Mode NodeClass of the same name is not this one.
        NodePool.NodeClassRef ref = new NodePool.NodeClassRef(null, null, o.name());
        Optional<NodeClass> configured = cfg.nodeClasses().stream().filter(c -> c.isNamedBy(ref)).findFirst();
        NodeClassStatus resolved = new NodeClassStatus(List.of(), List.of(), List.of(), null, List.of());
        String failure = null;
        if (!problems.isEmpty()) {
            failure = String.join("; ", problems);
        } else if (configured.isEmpty()) {
            failure = "not in Gantry's configuration";
        } else {
            try {
                resolved = resolver.resolve(configured.get());
            } catch (RuntimeException e) {
                failure = "could not resolve: " + e.getMessage();
            }
        }
        List<Condition> c = new ArrayList<>(failure == null ? NodeClassReadiness.conditions(resolved, now)
                : NodeClassReadiness.notResolved(failure, now));
        c.add(NodeClassReadiness.validation(problems, List.copyOf(c), now));
        boolean allReady = c.stream().allMatch(x -> x.status() == Condition.Status.True);
        String why = failure != null ? failure : c.stream().filter(x -> x.status() != Condition.Status.True)
                .map(Condition::message).findFirst().orElse("");
        c.add(allReady ? Condition.isTrue("Ready", "Ready", now)
                : Condition.isFalse("Ready", problems.isEmpty() ? "NotReady" : "ValidationFailed", why, now));
        return resolved.withConditions(keepTimes(c, before).stream().map(x -> x.observing(o.generation())).toList());
    }

    /** {@code claims}: the pool's own. */
    private PoolStatus pool(StatusObjects.Observed<PoolStatus> o, GantryConfig cfg, Map<String, List<String>> diag,
                            List<NodeClaim> claims, Map<String, Optional<Condition>> classReady,
                            Map<String, Long> classGenerations, Instant now) {
        List<Condition> before = o.status() == null ? List.of() : o.status().conditions();
        Resources sum = Resources.ZERO;
        long nodes = 0;
        for (NodeClaim c : claims) {
            if (c.state() != NodeClaimState.Terminated) {
                nodes++;
                if (c.instanceType() != null) {
                    sum = sum.plus(capacity.of(c.instanceType()).map(ClaimProjection.Capacity::capacity).orElse(Resources.ZERO));
                }
            }
        }
        Map<String, String> resources = new TreeMap<>();
        sum.asMap().forEach((k, v) -> resources.put(k, Resources.format(k, v)));
        resources.put(PoolCost.RESOURCE, PoolCost.format(PoolCost.of(o.name(), claims).perHour()));
        List<String> problems = diag.getOrDefault("NodePool/" + o.name(), List.of());
        Optional<NodePool> configured = cfg.nodePool(o.name());
        List<Condition> c = new ArrayList<>();
        if (!problems.isEmpty()) {
            c.add(Condition.isFalse("ValidationSucceeded", "ValidationFailed", String.join("; ", problems), now));
        } else if (configured.isEmpty()) {
            c.add(Condition.unknown("ValidationSucceeded", "NotLoaded", "not in Gantry's configuration", now));
        } else {
            c.add(Condition.isTrue("ValidationSucceeded", "ValidationSucceeded", now));
        }
        // An EC2NodeClass reports its own Ready; another kind (EKS Auto Mode's NodeClass) has no status here: configured
        // is as ready as Gantry can tell.
        Optional<Condition> nodeClass = configured.flatMap(p -> p.template().nodeClassRef().kind().equals("EC2NodeClass")
                ? classReady.getOrDefault(p.template().nodeClassRef().name(), Optional.empty())
                : cfg.nodeClassOf(p).map(nc -> Condition.isTrue("Ready", "Ready", now)));
        c.add(nodeClass.filter(r -> r.status() == Condition.Status.True)
                .map(r -> Condition.isTrue("NodeClassReady", "NodeClassReady", now))
                .orElseGet(() -> Condition.isFalse("NodeClassReady", "NodeClassNotReady", nodeClass.isEmpty()
                        ? "its NodeClass was not found" : "its NodeClass is not ready: " + nodeClass.get().message(), now)));
        boolean ready = c.stream().allMatch(x -> x.status() == Condition.Status.True);
        c.add(ready ? Condition.isTrue("Ready", "Ready", now) : Condition.isFalse("Ready", "NotReady",
                c.stream().filter(x -> x.status() != Condition.Status.True).map(x -> x.type() + ": " + x.message())
                        .findFirst().orElse(""), now));
        // Not part of Ready, as in Karpenter; it sets its own transition times (a start-over moves it to now).
        long classGeneration = configured.map(p -> p.template().nodeClassRef())
                .filter(ref -> "EC2NodeClass".equals(ref.kind()))
                .map(ref -> classGenerations.getOrDefault(ref.name(), 0L)).orElse(0L);
        boolean classChanged = o.status() != null && o.status().nodeClassObservedGeneration() != classGeneration;
        Condition health = RegistrationHealth.of(Condition.find(before, RegistrationHealth.TYPE), o.generation(),
                classChanged, claims, now);
        List<Condition> conditions = new ArrayList<>(keepTimes(c, before).stream().map(x -> x.observing(o.generation())).toList());
        conditions.add(conditions.size() - 1, health);
        return new PoolStatus(resources, nodes, conditions, classGeneration);
    }

    /** Each condition keeps the time of the one it replaces when its status did not change. */
    private static List<Condition> keepTimes(List<Condition> now, List<Condition> before) {
        return now.stream().map(c -> c.keepingTimeOf(Condition.find(before, c.type()))).toList();
    }

    private static boolean write(Runnable w, int[] failed) {
        try {
            w.run();
            return true;
        } catch (RuntimeException e) {
            failed[0]++;
            if (!(e instanceof NodeClaimObjects.Stale)) {
                LOG.log(System.Logger.Level.WARNING, "status write failed, the next sweep retries: " + e);
            }
            return false;
        }
    }
}
