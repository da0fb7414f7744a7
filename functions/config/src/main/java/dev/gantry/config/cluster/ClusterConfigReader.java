package dev.gantry.config.cluster;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.source.Diagnostic;
import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.config.ConfigObject;
import dev.gantry.core.config.ConfigObjects;
import dev.gantry.core.config.ConfigSource;
import dev.gantry.core.config.ConfigUnavailable;
import dev.gantry.core.headroom.LiveHeadroom;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one reader of the cluster's configuration: lists the objects ({@link ConfigObjects}) on every call and reads
 * them through {@link ConfigLoader}, the reader {@code gantry validate} uses for YAML files, in one load, so a NodePool
 * finds its NodeClass and a buffer its PodTemplate or NodePool exactly as in a file. NodeOverlays are read with the
 * NodePools: a changed overlay rebuilds the configuration (and the services over it) as a changed NodePool does.
 *
 * <p>Cache: the list is cheap, the parse is not. The parse is redone only when the set of (kind, name, resourceVersion)
 * changed; otherwise the previous {@link ClusterConfig} instance is returned. When only buffers or their targets
 * changed (a Deployment's replicas), the previous {@link GantryConfig} instance is kept, so services built over it
 * ({@link dev.gantry.core.config.ConfigBound}) are not rebuilt.
 *
 * <p>Invalid objects: an object the reader rejects is left out with its messages ({@code field: message}, without the
 * meaningless line of a JSON document); so is a NodePool whose {@code nodeClassRef} names an EC2NodeClass that is not
 * in the cluster or was rejected. The rest is used.
 *
 * <p>When the list fails: the last good reading is used while it is at most {@link #maxStale} old, with a warning;
 * after that, or when there has been no good reading, {@link ConfigUnavailable} is thrown and the run fails (and is
 * retried by its queue or the next sweep). A failed list almost always means the API server is unreachable, and then
 * the run fails anyway on its next read of pods or nodes; the bound is for a list that fails alone (an RBAC rule
 * missing for one kind, a flaky CRD endpoint), and keeps a deleted or changed NodePool from being acted on as it was
 * for long.
 */
public final class ClusterConfigReader implements ConfigSource {
    /** How long the last good reading stands in for a failed list. */
    public static final Duration MAX_STALE = Duration.ofMinutes(10);
    private static final System.Logger LOG = System.getLogger(ClusterConfigReader.class.getName());
    private static final Set<String> POOL_KINDS = Set.of("NodePool", "EC2NodeClass", "NodeOverlay");

    private final ConfigObjects objects;
    private final String region;
    private final List<String> zones;
    private final Duration maxStale;
    private ClusterConfig last;
    private String lastPoolsVersion;
    private Instant lastReadAt;
    private int parses;

    /**
     * @param region the region NodePools launch in
     * @param zones  the zones Gantry may launch in (empty: the region's defaults)
     */
    public ClusterConfigReader(ConfigObjects objects, String region, List<String> zones) {
        this(objects, region, zones, MAX_STALE);
    }

    public ClusterConfigReader(ConfigObjects objects, String region, List<String> zones, Duration maxStale) {
        this.objects = Objects.requireNonNull(objects, "objects");
        this.region = Objects.requireNonNull(region, "region");
        this.zones = List.copyOf(zones);
        this.maxStale = Objects.requireNonNull(maxStale, "maxStale");
    }

    /**
     * Lists outside the lock (a list is a network call, and callers must not wait on each other for it), then compares
     * and parses under it.
     */
    @Override
    public ClusterConfig current(Instant now) {
        List<ConfigObject> listed;
        try {
            listed = objects.list();
        } catch (RuntimeException e) {
            return lastGood(now, e);
        }
        return read(listed, now);
    }

    private synchronized ClusterConfig lastGood(Instant now, RuntimeException e) {
        if (last != null && !now.isAfter(lastReadAt.plus(maxStale))) {
            LOG.log(System.Logger.Level.WARNING, "configuration list failed, using the reading of " + lastReadAt + ": " + e);
            return last;
        }
        throw new ConfigUnavailable(last == null ? "the cluster's configuration could not be read"
                : "the cluster's configuration could not be read, and the last reading (" + lastReadAt
                + ") is older than " + maxStale.toMinutes() + " min", e);
    }

    private synchronized ClusterConfig read(List<ConfigObject> listed, Instant now) {
        if (lastReadAt == null || now.isAfter(lastReadAt)) {
            lastReadAt = now;
        }
        List<ConfigObject> sorted = listed.stream().sorted(Comparator.comparing(ConfigObject::key)).toList();
        String version = version(sorted);
        if (last != null && last.version().equals(version)) {
            return last;
        }
        String poolsVersion = version(sorted.stream().filter(o -> POOL_KINDS.contains(o.kind())).toList());
        last = read(sorted, version, last != null && poolsVersion.equals(lastPoolsVersion) ? last.config() : null);
        lastPoolsVersion = poolsVersion;
        return last;
    }

    /** How many times the objects were parsed (for tests of the cache). */
    public synchronized int parses() {
        return parses;
    }

    private ClusterConfig read(List<ConfigObject> sorted, String version, GantryConfig keep) {
        parses++;
        String text = sorted.stream().map(ConfigObject::json).collect(Collectors.joining("\n---\n"));
        LoadResult r = ConfigLoader.loadString("cluster", text, LoadOptions.DEFAULT);
        Map<String, List<String>> invalid = new LinkedHashMap<>();
        for (Diagnostic d : r.errors()) {
            String where = d.object().isEmpty() ? "cluster" : d.object();
            invalid.computeIfAbsent(where, k -> new ArrayList<>()).add(d.field().isEmpty() ? d.message() : d.field() + ": " + d.message());
        }
        GantryConfig config = keep;
        if (config == null) {
            GantryConfig all = new GantryConfig(r.nodePools(), r.nodeClasses(), region, zones, r.overlays());
            List<NodePool> usable = new ArrayList<>();
            for (NodePool p : all.nodePools()) {
                if (all.nodeClassOf(p).isPresent()) {
                    usable.add(p);
                } else {
                    NodePool.NodeClassRef ref = p.template().nodeClassRef();
                    String ofClass = ref.kind() + "/" + ref.name();
                    invalid.computeIfAbsent("NodePool/" + p.name(), k -> new ArrayList<>()).add("spec.template.spec.nodeClassRef: "
                            + ofClass + (invalid.containsKey(ofClass) ? " is invalid" : " is not in the cluster"));
                }
            }
            config = all.withNodePools(usable);
        } else {
            // The pools are unchanged, and so are their messages.
            last.invalid().forEach((k, v) -> {
                if (POOL_KINDS.contains(k.substring(0, k.indexOf('/')))) {
                    invalid.putIfAbsent(k, v);
                }
            });
        }
        invalid.forEach((k, v) -> LOG.log(System.Logger.Level.WARNING, k + " left out: " + String.join("; ", v)));
        return new ClusterConfig(config, new LiveHeadroom.Buffers(r.buffers(), r.bufferTargets()), invalid, version);
    }

    private static String version(List<ConfigObject> sorted) {
        return sorted.stream().map(o -> o.key() + "@" + o.resourceVersion()).collect(Collectors.joining(","));
    }
}
