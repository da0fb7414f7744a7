package dev.gantry.cli.status;

import dev.gantry.cli.plan.PlanningConfig;
import dev.gantry.cli.validate.CatalogSource;
import dev.gantry.config.ConfigLoader;
import dev.gantry.config.cluster.BufferLayers;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.core.headroom.BootLead;
import dev.gantry.core.headroom.BufferTargets;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.headroom.DemandHistoryStore;
import dev.gantry.core.headroom.LiveHeadroom;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.provisioning.ClusterView;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import dev.gantry.kube.KubeCluster;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a {@link StatusSnapshot} from a deployed Gantry: the state table, the cluster (pods, nodes, Gantry's Events,
 * the workloads buffers refer to) and the configuration. Read-only: nothing is written anywhere.
 */
public final class StatusSources {
    /** The component Gantry's Events carry ({@code source.component} and {@code reportingComponent}). */
    static final String COMPONENT = "gantry";

    private StatusSources() {
    }

    /**
     * @param objects  the cluster's configuration objects ({@link ClusterObjects#read}), whose buffers are laid over
     *                 {@code config}'s
     * @param bootLead how early scheduled buffers open; null: as the functions compute it ({@link BootLead#of}: the
     *                 store's claims' measured boot plus the deployed sweep rate), as {@code gantry consolidate} does
     */
    public static StatusSnapshot read(NodeClaimStore store, DemandHistoryStore demand, KubernetesClient kube,
                                      ClusterObjects.Read objects, LoadResult config, CatalogSource catalogs, Instant now,
                                      Duration bootLead) {
        var claims = store.list(now);
        Duration lead = bootLead != null ? bootLead : BootLead.of(claims, DeploymentSettings.DEFAULT.sweepRate());
        var usage = store.poolUsage();
        KubeCluster cluster = new KubeCluster(kube, Clock.fixed(now, ZoneOffset.UTC));
        List<Pod> pods = cluster.pods();
        List<Node> nodes = cluster.nodes();
        List<StatusSnapshot.GantryEvent> events = events(kube);
        LiveHeadroom.Buffers buffers = buffers(objects, config);
        BufferTargets targets = buffers.targets().with(clusterTargets(kube, buffers.buffers()));
        Map<String, String> plan = planReasons(config, catalogs, cluster, pods, nodes, claims, events, now);
        java.util.Set<String> poolNames = new java.util.TreeSet<>();
        config.nodePools().forEach(p -> poolNames.add(p.name()));
        usage.forEach(u -> poolNames.add(u.nodePool()));
        claims.forEach(c -> {
            if (c.nodePool() != null) {
                poolNames.add(c.nodePool());
            }
        });
        return new StatusSnapshot(now, config.nodePools(), claims, usage, nodes, pods, events, plan, buffers.buffers(),
                targets, demand.read(now), lead, dev.gantry.core.disruption.execution.BackOffs.of(store, poolNames, now));
    }

    /**
     * The bundle's buffers, then the cluster's CapacityBuffers (when the CRD is installed) that the bundle does not define,
     * as the provisioner and the sweep see them ({@link BufferLayers}): a buffer defined in both places keeps the bundle's
     * version. A cluster buffer that does not read cleanly is left out with a warning on stderr, as the functions log it.
     */
    static LiveHeadroom.Buffers buffers(ClusterObjects.Read objects, LoadResult config) {
        return BufferLayers.over(config, "cluster", objects.bufferDocuments(),
                w -> System.err.println("warning: " + w));
    }

    static List<StatusSnapshot.GantryEvent> events(KubernetesClient kube) {
        List<StatusSnapshot.GantryEvent> out = new ArrayList<>();
        for (Event e : kube.v1().events().inAnyNamespace().list().getItems()) {
            boolean gantry = COMPONENT.equals(e.getReportingComponent())
                    || e.getSource() != null && COMPONENT.equals(e.getSource().getComponent());
            Instant at = time(e);
            if (!gantry || at == null || e.getInvolvedObject() == null || e.getInvolvedObject().getName() == null) {
                continue;
            }
            var o = e.getInvolvedObject();
            out.add(new StatusSnapshot.GantryEvent(at, o.getKind() == null ? "" : o.getKind(), o.getNamespace(), o.getName(),
                    e.getType(), e.getReason(), e.getMessage() == null ? "" : e.getMessage()));
        }
        return out;
    }

    private static Instant time(Event e) {
        for (String t : new String[] {e.getLastTimestamp(), e.getEventTime() == null ? null : e.getEventTime().getTime(),
                e.getFirstTimestamp(), e.getMetadata() == null ? null : e.getMetadata().getCreationTimestamp()}) {
            if (t != null && !t.isEmpty()) {
                try {
                    return Instant.parse(t);
                } catch (java.time.format.DateTimeParseException ignored) {
                    // try the next timestamp
                }
            }
        }
        return null;
    }

    /**
     * The workloads named by {@code scalableRef}s, read from the cluster and through the same reader as the bundle's
     * manifests (their JSON is YAML), so a chunk looks the same wherever its workload was found.
     */
    static BufferTargets clusterTargets(KubernetesClient kube, List<CapacityBuffer> buffers) {
        List<BufferTargets.Target> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (CapacityBuffer b : buffers) {
            if (!(b.target() instanceof CapacityBuffer.ScalableRef ref) || !seen.add(b.namespace() + "/" + ref.label())) {
                continue;
            }
            HasMetadata object = switch (ref.kind()) {
                case "Deployment" -> kube.apps().deployments().inNamespace(b.namespace()).withName(ref.name()).get();
                case "StatefulSet" -> kube.apps().statefulSets().inNamespace(b.namespace()).withName(ref.name()).get();
                case "ReplicaSet" -> kube.apps().replicaSets().inNamespace(b.namespace()).withName(ref.name()).get();
                default -> null;
            };
            if (object == null) {
                continue;
            }
            LoadResult r = ConfigLoader.loadString("cluster:" + b.namespace() + "/" + ref.label(), Serialization.asJson(object),
                    LoadOptions.DEFAULT);
            out.addAll(r.bufferTargets().byKey().values());
        }
        return BufferTargets.of(out);
    }

    /**
     * What a fresh plan says about pods Gantry recorded nothing for: the provisioner's plan
     * ({@link dev.gantry.core.provisioning.LaunchPlanner}, on the cluster and the store's claims as a provisioning run
     * reads them), with the scheduler's reason for a pod it cannot place, or where it would go. Empty without NodePools
     * in the configuration, or when no plan can be made (no built-in catalogue for the region).
     */
    static Map<String, String> planReasons(LoadResult config, CatalogSource catalogs, KubeCluster cluster, List<Pod> pods,
                                           List<Node> nodes, List<NodeClaim> claims, List<StatusSnapshot.GantryEvent> events,
                                           Instant now) {
        Set<String> explained = new HashSet<>();
        events.stream().filter(e -> e.kind().equals("Pod")).forEach(e -> explained.add(e.key()));
        boolean any = pods.stream().anyMatch(p -> p.isProvisionable() && !explained.contains(p.key()));
        if (!any || config.nodePools().isEmpty()) {
            return Map.of();
        }
        SchedulingResult result;
        try {
            PlanningConfig planning = PlanningConfig.of(config, catalogs, w -> { });
            ClusterView view = new ClusterView(pods, nodes, cluster.daemonSets(), cluster.namespaceLabels());
            SchedulingInput input = planning.planner().input(view, claims, Set.of(), now);
            result = planning.planner().plan(view, input, List.of(), claims);
        } catch (IllegalArgumentException | IllegalStateException e) {
            // No built-in catalogue for the region, say: the plan only adds reasons, so status goes on without it.
            return Map.of();
        }
        Map<String, String> out = new HashMap<>();
        result.unschedulable().forEach(u -> out.put(u.pod().key(), u.reason()));
        result.newClaims().forEach(c -> c.pods().forEach(p -> out.put(p.key(), "a fresh plan would launch "
                + c.instanceType().name() + " (NodePool " + c.nodePool() + ")")));
        result.existingNodes().forEach((node, placed) -> placed.forEach(p -> out.put(p.key(), "fits on node " + node
                + " (waiting for kube-scheduler)")));
        result.inFlightClaims().forEach((claim, placed) -> placed.forEach(p -> out.put(p.key(), "nominated to NodeClaim " + claim
                + ", which is launching")));
        return out;
    }
}
