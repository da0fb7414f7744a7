package dev.gantry.core.disruption.drift.rollout;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.NodeClassResolution;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.config.ConfigSource;
import dev.gantry.core.disruption.drift.DriftCheck;
import dev.gantry.core.disruption.execution.DriftGate;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The AMI rollouts of every EC2NodeClass, carried out ({@link AmiRollout} decides): the drift gate of the sweep's
 * decision ({@link #admits}) and the images new launches keep while a rollout is paused ({@link #pins}).
 *
 * <p>State: a pause is the store's marker {@code drift-paused/<class>/<target images>} (the instant it was recorded),
 * written once, when a canary first fails; everything else is derived from the claims on every call, so the sweep
 * keeps nothing between runs, and a second delivery or a crash between the marker and the Event leaves a state the
 * next call finishes (the Event and {@code onPause} follow the first write only; a lost Event is not retried). A new
 * image (AWS publishes a fixed AMI, or the operator pins another) is a new rollout with its own canary; an operator
 * resumes a paused one by setting {@value RolloutPolicy#RESUME} to the paused image.
 *
 * <p>Errors: a NodeClass whose images cannot be resolved this time holds its AMI-drifted claims back (no rollout is
 * decided blind) and pins nothing.
 */
public final class AmiRollouts implements DriftGate {
    private static final System.Logger LOG = System.getLogger(AmiRollouts.class.getName());

    private final NodeClaimStore store;
    private final NodeClassResolution resolution;
    private final ClusterReader reader;
    private final ClusterWriter writer;
    private final Supplier<GantryConfig> config;
    private final Consumer<AmiRollout> onPause;
    private StartDelay delay = StartDelay.NONE;
    /** Each instance's image as the sweep's drift step last listed them ({@link #listed}); empty in other functions. */
    private volatile Map<String, String> listedImages = Map.of();
    private Supplier<List<CloudInstance>> instances = List::of;
    /** The images a paused rollout holds, by class and target, once found (they do not change while it is paused). */
    private final Map<String, Map<String, String>> heldFound = new java.util.concurrent.ConcurrentHashMap<>();
    /** Pause markers of the standard-images-only form found absent ({@link #pausedAt}). */
    private final java.util.Set<String> noLegacyPause = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * @param resolution what each class resolves to as written (not pinned)
     * @param config     the configuration as read from the cluster, before {@link #pins} (the class as written)
     * @param onPause    told once per pause, after its marker is written (a metric)
     */
    public AmiRollouts(NodeClaimStore store, NodeClassResolution resolution, ClusterReader reader, ClusterWriter writer,
                       Supplier<GantryConfig> config, Consumer<AmiRollout> onPause) {
        this.store = store;
        this.resolution = resolution;
        this.reader = reader;
        this.writer = writer;
        this.config = config;
        this.onPause = onPause;
    }

    /** The instances the sweep listed this run: which image each claim runs (launched claims keep no record of it). */
    public void listed(List<CloudInstance> listed) {
        Map<String, String> m = new HashMap<>();
        listed.forEach(i -> {
            if (i.imageId() != null) {
                m.put(i.instanceId(), i.imageId());
            }
        });
        listedImages = m;
    }

    /** Where {@link #pins} lists the instances when no sweep listed them in this function (a provisioner). */
    public AmiRollouts withInstances(Supplier<List<CloudInstance>> list) {
        this.instances = java.util.Objects.requireNonNull(list, "list");
        return this;
    }

    /** The cluster's start delay for a release ({@link StartDelay}); none unless set. */
    public AmiRollouts withStartDelay(StartDelay d) {
        this.delay = java.util.Objects.requireNonNull(d, "delay");
        return this;
    }

    /** The configuration source with paused classes pinned, and the rollouts judging by the cluster's reading. */
    public record Wired(PausedImages config, AmiRollouts rollouts) {
    }

    /**
     * Wires the rollouts over the cluster's configuration, as every composition root does: {@code config} pins what is
     * paused and the rollouts decide on its {@link PausedImages#raw} reading.
     */
    public static Wired over(ConfigSource cluster, NodeClaimStore store, NodeClassResolution resolution, ClusterReader reader,
                             ClusterWriter writer, java.time.Clock clock, Consumer<AmiRollout> onPause) {
        AmiRollouts[] rollouts = new AmiRollouts[1];
        PausedImages config = new PausedImages(cluster, cfg -> rollouts[0].pins(cfg, clock.instant()));
        rollouts[0] = new AmiRollouts(store, resolution, reader, writer, config::raw, onPause);
        return new Wired(config, rollouts[0]);
    }

    /**
     * Every class's rollout now, by {@link NodeClass#key}, recording a pause (marker, Event, {@code onPause}) where a
     * canary has just failed.
     */
    public Map<String, Optional<AmiRollout>> evaluate(List<NodeClaim> claims, List<Node> nodes, Instant now) {
        return evaluate(claims, nodes, CanaryPods.NONE, now);
    }

    /** As above, judging the canaries' pods too ({@link CanaryPods}). */
    public Map<String, Optional<AmiRollout>> evaluate(List<NodeClaim> claims, List<Node> nodes, CanaryPods pods, Instant now) {
        GantryConfig cfg = config.get();
        Map<String, Node> byName = new HashMap<>();
        nodes.forEach(n -> byName.putIfAbsent(n.name(), n));
        Map<String, Optional<AmiRollout>> out = new LinkedHashMap<>();
        for (NodeClass nc : cfg.nodeClasses()) {
            Optional<Map<String, String>> target = target(nc);
            if (target.isEmpty()) {
                out.put(nc.key(), Optional.empty());
                continue;
            }
            String key = markerKey(nc.key(), target.get());
            List<NodeClaim> own = claimsOf(cfg, nc, claims);
            Instant seen = seen(nc, target.get(), now);
            AmiRollout r = AmiRollout.decide(nc.name(), RolloutPolicy.of(nc.annotations()), target.get(), own, byName,
                    new AmiRollout.Images(listedImages, seen), pods, pausedAt(nc.key(), target.get()), nc.annotations().get(RolloutPolicy.RESUME),
                    startsAt(nc, seen), now);
            if (r.failed() && store.marker(key).isEmpty()) {
                store.setMarker(key, now);
                LOG.log(System.Logger.Level.WARNING, "drift: " + nc.kind() + " " + nc.name() + ": " + r.why());
                writer.event(nc.kind(), null, nc.name(), "Warning", "DriftRolloutPaused", r.why());
                onPause.accept(r);
            }
            out.put(nc.key(), Optional.of(r));
        }
        return out;
    }

    /** The drift gate over a fresh read of the cluster's nodes and pods. */
    @Override
    public Predicate<NodeClaim> admits(List<NodeClaim> claims, Instant now) {
        return admits(claims, new dev.gantry.core.provisioning.ClusterView(reader.pods(), reader.nodes(), List.of(), Map.of()), now);
    }

    /**
     * The sweep's drift gate: an AMI-drifted claim waits while its class's rollout holds old nodes back. The canaries
     * are judged by the view's nodes and pods (the sweep's own read).
     */
    @Override
    public Predicate<NodeClaim> admits(List<NodeClaim> claims, dev.gantry.core.provisioning.ClusterView view, Instant now) {
        Map<String, Optional<AmiRollout>> rollouts = evaluate(claims, view.nodes(), CanaryPods.of(view.pods()), now);
        GantryConfig cfg = config.get();
        Map<String, String> classOfPool = new HashMap<>();
        cfg.nodePools().forEach(p -> cfg.nodeClassOf(p).ifPresent(nc -> classOfPool.put(p.name(), nc.key())));
        Map<String, Node> nodesOf = new dev.gantry.core.lifecycle.ClaimsByNode(claims).nodesByClaim(view.nodes());
        return c -> {
            if (c.drift() == null || !DriftCheck.AMI.equals(c.drift().drifted())) {
                return true;
            }
            String nc = classOfPool.get(c.nodePool());
            Optional<AmiRollout> r = nc == null ? Optional.empty() : rollouts.getOrDefault(nc, Optional.empty());
            if (r.isEmpty()) {
                return nc == null;
            }
            String image = new AmiRollout.Images(listedImages, null).of(c);
            return r.get().admitsOldNodes() || (image != null && AmiRollout.onTarget(r.get().target(), nodesOf.get(c.name()), image));
        };
    }

    /**
     * The classes whose rollout is paused, each as launches should use it now: its AMI selector pinned to the held images
     * by id (the family kept, so nothing else about the launch or its hash changes). One marker read per class; the
     * claims are listed only when a class is paused. By {@link NodeClass#key}.
     */
    public Map<String, NodeClass> pins(GantryConfig cfg, Instant now) {
        Map<String, NodeClass> pins = new TreeMap<>();
        List<NodeClaim> claims = null;
        List<Node> nodes = null;
        for (NodeClass nc : cfg.nodeClasses()) {
            Optional<Map<String, String>> target = target(nc);
            if (target.isEmpty()) {
                continue;
            }
            Optional<Instant> paused = pausedAt(nc.key(), target.get());
            if (paused.isEmpty()) {
                continue;
            }
            String resume = nc.annotations().get(RolloutPolicy.RESUME);
            if (resume != null && target.get().containsValue(resume.trim())) {
                continue;
            }
            String heldKey = markerKey(nc.key(), target.get());
            Map<String, String> held = heldFound.get(heldKey);
            if (held == null) {
                claims = claims == null ? store.list(now) : claims;
                nodes = nodes == null ? reader.nodes() : nodes;
                Map<String, Node> byName = new HashMap<>();
                nodes.forEach(n -> byName.putIfAbsent(n.name(), n));
                Map<String, String> images = listedImages;
                if (images.isEmpty()) {
                    images = new HashMap<>();
                    for (CloudInstance i : instances.get()) {
                        if (i.imageId() != null) {
                            images.put(i.instanceId(), i.imageId());
                        }
                    }
                }
                AmiRollout r = AmiRollout.decide(nc.name(), RolloutPolicy.of(nc.annotations()), target.get(),
                        claimsOf(cfg, nc, claims), byName, new AmiRollout.Images(images, null), paused, resume, null, now);
                held = r.held();
                if (!held.isEmpty()) {
                    heldFound.put(heldKey, held);
                }
            }
            if (!held.isEmpty()) {
                pins.put(nc.key(), pinned(nc, held));
            }
        }
        return pins;
    }

    /**
     * {@code nc} launching {@code held} (by image key): its AMI terms replaced by id terms, its family kept. An alias's
     * variant image is pinned for the key it serves ({@link NodeClass.AmiSelectorTerm#serves}), so a paused class
     * still launches its GPU types on the GPU image it held.
     */
    public static NodeClass pinned(NodeClass nc, Map<String, String> held) {
        List<NodeClass.AmiSelectorTerm> terms = new ArrayList<>();
        java.util.Set<String> plain = new java.util.HashSet<>();
        new TreeMap<>(held).forEach((key, id) -> {
            if (dev.gantry.core.cloud.ImageKeys.variant(key) != null) {
                terms.add(NodeClass.AmiSelectorTerm.pinned(id, key));
            } else if (plain.add(id)) {
                terms.add(new NodeClass.AmiSelectorTerm(null, id, null, null, Map.of(), null));
            }
        });
        return nc.withAmi(nc.effectiveAmiFamily(), terms);
    }

    /**
     * When a release's rollout may begin: the instant the class first resolved the target (a marker, written once)
     * plus the start delay; null for no wait (no delay, or the class's terms pin its image: an operator's change).
     */
    private Instant startsAt(NodeClass nc, Instant seen) {
        return delay.delay().isZero() || !followsReleases(nc) ? null : seen.plus(delay.delay());
    }

    /** When the class first resolved {@code target}: the marker {@code drift-seen/<class>/<images>}, written once. */
    private Instant seen(NodeClass nc, Map<String, String> target, Instant now) {
        String key = "drift-seen/" + markerKey(nc.key(), target).substring("drift-paused/".length());
        Optional<Instant> seen = store.marker(key);
        if (seen.isEmpty()) {
            store.setMarker(key, now);
            return now;
        }
        return seen.get();
    }

    /** Whether the class follows AWS's releases: no terms, an {@code @latest} alias or an SSM parameter. */
    static boolean followsReleases(NodeClass nc) {
        return nc.amiSelectorTerms().isEmpty() || nc.amiSelectorTerms().stream().anyMatch(t -> t.ssmParameter() != null
                || (t.alias() != null && t.alias().endsWith("@latest")));
    }

    private Optional<Map<String, String>> target(NodeClass nc) {
        try {
            return resolution.resolve(nc).map(NodeClassResolution.Selected::images).filter(m -> !m.isEmpty());
        } catch (CloudException | IllegalStateException e) {
            LOG.log(System.Logger.Level.WARNING, "drift: " + nc.kind() + " " + nc.name() + "'s images were not resolved, its AMI "
                    + "rollout holds this time: " + e);
            return Optional.empty();
        }
    }

    private static List<NodeClaim> claimsOf(GantryConfig cfg, NodeClass nc, List<NodeClaim> claims) {
        List<String> pools = cfg.nodePools().stream()
                .filter(p -> cfg.nodeClassOf(p).map(c -> c.key().equals(nc.key())).orElse(false)).map(NodePool::name).toList();
        return claims.stream().filter(c -> pools.contains(c.nodePool())).toList();
    }

    /**
     * When a pause was recorded for the rollout of {@code nodeClass} onto {@code target}: its marker, or, for an alias's
     * images, the marker of the same release as a Gantry that resolved an alias's standard images only recorded it
     * (its key names the standard images alone: those the alias's {@code <arch>/standard} keys name now). A pause found
     * there is copied to this key, so an upgrade neither lifts a pause nor reads the old key again; one found absent is
     * not read again by this instance (no Gantry writes such keys any more).
     */
    private Optional<Instant> pausedAt(String nodeClass, Map<String, String> target) {
        String key = markerKey(nodeClass, target);
        Optional<Instant> at = store.marker(key);
        Map<String, String> standard = new TreeMap<>();
        target.forEach((k, v) -> {
            if (dev.gantry.core.cloud.ImageKeys.STANDARD.equals(dev.gantry.core.cloud.ImageKeys.variant(k))) {
                standard.put(k, v);
            }
        });
        String before = standard.isEmpty() ? key : markerKey(nodeClass, standard);
        if (at.isPresent() || before.equals(key) || noLegacyPause.contains(before)) {
            return at;
        }
        Optional<Instant> legacy = store.marker(before);
        legacy.ifPresentOrElse(t -> store.setMarker(key, t), () -> noLegacyPause.add(before));
        return legacy;
    }

    /** The pause marker of a rollout: the class and the images it rolls onto. */
    static String markerKey(String nodeClass, Map<String, String> target) {
        return "drift-paused/" + nodeClass + "/" + String.join(",", new TreeMap<>(target).values().stream().distinct().toList());
    }
}

