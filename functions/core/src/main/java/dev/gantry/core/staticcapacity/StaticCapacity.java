package dev.gantry.core.staticcapacity;

import dev.gantry.core.lifecycle.FreshClaimNames;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.termination.TerminationStart;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The sweep's static capacity step: every static NodePool ({@code spec.replicas}) brought to its count
 * ({@link StaticReplicas}). Karpenter runs this as two controllers on NodePool and NodeClaim events; Gantry runs it in
 * every sweep, so a change of {@code replicas} ({@code kubectl scale nodepool}, an edit of the bundle) is acted on within
 * a sweep interval.
 *
 * <ul>
 *   <li><b>Scale-up</b>: the missing claims are recorded Launching from the pool's template ({@link TemplateLauncher}) and
 *       one provisioning hint sent; the provisioning run launches them as it launches any recorded claim. Their names
 *       are derived from the state that asked for them (the pool, the names of its live claims that are past
 *       launching, and a free index), so a second delivery of the sweep, or a sweep overlapping another, that reads the
 *       same state asks for the same names and gets back the claims already recorded, never more.</li>
 *   <li><b>Scale-down</b>: the chosen claims go to the termination flow with reason {@value #REASON} (Karpenter's
 *       {@code overprovisioned}). It is forceful as Karpenter's is: no disruption budget is asked, but the drain
 *       evicts through the Eviction API (PDBs hold it) and waits out the pool's {@code terminationGracePeriod}.</li>
 * </ul>
 * Idempotent: the decision is a function of the store and the cluster, every write is conditional, and a claim already
 * deleting is not counted. A failure in one pool is logged and the others go on; the next sweep decides again.
 */
public final class StaticCapacity {
    /** The termination reason of a scale-down (Karpenter's static deprovisioning {@code TerminationReason}). */
    public static final String REASON = "overprovisioned";

    /** Records a Launching claim of a pool from its template under a name ({@code Provisioner.recordFromTemplate}). */
    @FunctionalInterface
    public interface TemplateLauncher {
        /** @return the claim recorded, or the in-flight one already under {@code name}; empty when nothing can launch */
        Optional<NodeClaim> record(NodePool pool, String name, Instant now);
    }

    /** What one run did: claims recorded from templates, and claims handed to the termination flow. */
    public record Report(int recorded, int removed) {
        public static final Report NONE = new Report(0, 0);
    }

    private final Supplier<Collection<NodePool>> pools;
    private final TemplateLauncher launcher;
    private final TerminationService termination;
    private final ProvisioningHints hints;

    public StaticCapacity(Supplier<Collection<NodePool>> pools, TemplateLauncher launcher, TerminationService termination,
                          ProvisioningHints hints) {
        this.pools = Objects.requireNonNull(pools, "pools");
        this.launcher = Objects.requireNonNull(launcher, "launcher");
        this.termination = Objects.requireNonNull(termination, "termination");
        this.hints = Objects.requireNonNull(hints, "hints");
    }

    /** Whether any pool is static: without one the sweep skips the step and its reads. */
    public boolean active() {
        return pools.get().stream().anyMatch(NodePool::isStatic);
    }

    /**
     * One pass over the static pools.
     *
     * @param claims the store's claims now (every pool's, closed ones too: their names are never reused)
     * @param nodes  the cluster's nodes
     * @param pods   the cluster's pods
     */
    public Report run(List<NodeClaim> claims, List<Node> nodes, List<Pod> pods, Instant now) {
        Map<String, Node> nodeByClaim = nodeByClaim(claims, nodes);
        Map<String, List<Pod>> podsByNode = pods.stream().filter(Pod::isBound)
                .collect(Collectors.groupingBy(Pod::nodeName));
        int recorded = 0;
        int removed = 0;
        String hintAbout = null;
        for (NodePool pool : pools.get()) {
            if (!pool.isStatic()) {
                continue;
            }
            List<StaticReplicas.Member> members = new ArrayList<>();
            for (NodeClaim c : claims) {
                if (c.nodePool().equals(pool.name())) {
                    Node n = nodeByClaim.get(c.name());
                    members.add(new StaticReplicas.Member(c, n, n == null ? List.of() : podsByNode.getOrDefault(n.name(), List.of())));
                }
            }
            try {
                StaticReplicas.Decision d = StaticReplicas.decide(pool, members, now);
                if (d.limited()) {
                    log(System.Logger.Level.INFO, "NodePool " + pool.name() + ": limits.nodes holds it at " + (d.live() + d.launch())
                            + " of " + d.replicas() + " replicas");
                }
                for (String name : newNames(pool, claims, now, d.launch())) {
                    Optional<NodeClaim> c = launcher.record(pool, name, now);
                    if (c.isEmpty()) {
                        log(System.Logger.Level.WARNING, "NodePool " + pool.name() + ": no instance type with an available "
                                + "offering fits its requirements; " + d.launch() + " replicas missing");
                        break;
                    }
                    hintAbout = hintAbout == null ? c.get().name() : hintAbout;
                    recorded++;
                }
                for (String claim : d.remove()) {
                    termination.start(claim, TerminationStart.because(REASON).with(FirstSlice.QUEUED));
                    removed++;
                }
            } catch (RuntimeException e) {
                log(System.Logger.Level.WARNING, "NodePool " + pool.name() + ": static capacity not kept in this sweep, the "
                        + "next one retries: " + e);
            }
        }
        if (hintAbout != null) {
            hints.send(ProvisioningHints.REPLACEMENT, null, hintAbout, now);
        }
        return recorded == 0 && removed == 0 ? Report.NONE : new Report(recorded, removed);
    }

    /**
     * {@code count} names for new claims of {@code pool}: {@code <pool>-static-<digest>-<i>}, where the digest covers the
     * names of the pool's live claims that have registered (what asked for the new ones, unchanged by the new ones
     * until they register, well after any overlapping sweep has read the state) and {@code i} runs over the indices no stored claim holds yet.
     */
    static List<String> newNames(NodePool pool, List<NodeClaim> claims, Instant now, int count) {
        if (count <= 0) {
            return List.of();
        }
        Set<String> base = new TreeSet<>();
        Set<String> taken = new java.util.HashSet<>();
        for (NodeClaim c : claims) {
            taken.add(c.name());
            if (c.nodePool().equals(pool.name()) && !c.state().isDeleting() && !c.state().isInFlight() && !c.isExpired(now)) {
                base.add(c.name());
            }
        }
        String prefix = pool.name() + "-static-" + digest(String.join(",", base)) + "-";
        List<String> out = new ArrayList<>(count);
        for (int i = 0; out.size() < count; i++) {
            String name = FreshClaimNames.bounded(prefix + i);
            if (!taken.contains(name)) {
                out.add(name);
            }
        }
        return out;
    }

    private static String digest(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Each claim's node, by {@link dev.gantry.core.lifecycle.ClaimsByNode}'s rule. */
    private static Map<String, Node> nodeByClaim(List<NodeClaim> claims, List<Node> nodes) {
        return new dev.gantry.core.lifecycle.ClaimsByNode(claims).nodesByClaim(nodes);
    }

    private static void log(System.Logger.Level level, String message) {
        System.getLogger(StaticCapacity.class.getName()).log(level, "sweep: " + message);
    }
}
