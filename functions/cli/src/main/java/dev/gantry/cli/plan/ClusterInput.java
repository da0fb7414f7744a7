package dev.gantry.cli.plan;

import dev.gantry.config.LoadResult;
import dev.gantry.core.disruption.consolidation.Rehearsal;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.provisioning.ClusterView;
import dev.gantry.kube.objects.dump.ClusterDump;
import dev.gantry.kube.objects.dump.DumpException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cluster an offline what-if decides on, read as the handlers read the live one: a dump through the kube-objects
 * mappers ({@link ClusterDump}), with the NodeClaims the store would hold for its nodes, and workload manifests a person
 * wrote (through the same mappers, after line-accurate checks). Manifests' unbound pods are taken as kube-scheduler
 * leaves pods it cannot place: marked Unschedulable, so the provisioner would plan them.
 */
public final class ClusterInput {
    private ClusterInput() {
    }

    /**
     * Reads a dump, printing progress and the one-line error on {@code err}; empty when the command should exit 2.
     * {@code command} names the command in messages.
     */
    public static Optional<ClusterDump> read(String command, List<Path> paths, PrintWriter err) {
        try {
            ClusterDump d = ClusterDump.read(paths, line -> {
                err.println("gantry " + command + ": " + line);
                err.flush();
            });
            if (d.nodes().isEmpty()) {
                err.println("gantry " + command + ": no Node in " + paths + " (read " + d.stats().objects() + " objects in "
                        + d.stats().files() + " file" + (d.stats().files() == 1 ? "" : "s") + "); a dump is what "
                        + "`kubectl get nodes,pods,pdb -A -o yaml` prints");
                return Optional.empty();
            }
            return Optional.of(d);
        } catch (DumpException e) {
            err.println("gantry " + command + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    /** When to decide, unless told: the dump's latest node heartbeat, else {@code fallback}. */
    public static Instant takenAt(ClusterDump d, Instant fallback) {
        return d.stats().takenAt() != null ? d.stats().takenAt() : fallback;
    }

    /** The dump, with manifests' objects added (their unbound pods marked Unschedulable), as of {@code now}. */
    public static Rehearsal.Cluster of(ClusterDump dump, LoadResult manifests, Instant now) {
        List<Pod> pods = new ArrayList<>(dump == null ? List.of() : dump.pods());
        List<Node> nodes = new ArrayList<>(dump == null ? List.of() : dump.nodes());
        List<DaemonSet> daemonSets = new ArrayList<>(dump == null ? List.of() : dump.daemonSets());
        List<PodDisruptionBudget> pdbs = new ArrayList<>(dump == null ? List.of() : dump.pdbs());
        List<NodeClaim> claims = dump == null ? List.of() : dump.claims();
        Map<String, Map<String, String>> namespaces = dump == null ? Map.of() : dump.namespaceLabels();
        if (manifests != null) {
            manifests.pods().forEach(p -> pods.add(waiting(p)));
            nodes.addAll(manifests.nodes());
            daemonSets.addAll(manifests.daemonSets());
            pdbs.addAll(manifests.pdbs());
        }
        return new Rehearsal.Cluster(new ClusterView(pods, nodes, daemonSets, namespaces), claims, pdbs, now);
    }

    /** A manifest's pod as kube-scheduler leaves one it cannot place now; bound and finished pods as they are. */
    static Pod waiting(Pod p) {
        if (p.isBound() || p.status().isTerminal() || p.isDaemon()) {
            return p;
        }
        Pod.Status s = p.status();
        return p.toBuilder().status(new Pod.Status(s.phase(), true, s.createdAt(), s.deletingSince(),
                s.terminationGracePeriodSeconds(), s.startedAt(), s.ready())).build();
    }
}
