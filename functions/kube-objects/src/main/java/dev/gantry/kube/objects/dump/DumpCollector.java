package dev.gantry.kube.objects.dump;

import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.kube.objects.dump.ItemMapper.Mapped;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads a dump's files, maps their items in parallel ({@link ItemMapper}, in batches on one thread per core) and takes
 * the results in file order, so the cluster view is the same however many cores read it. Only a bounded number of
 * batches is in flight: memory is the mapped values, not the dump.
 */
final class DumpCollector {
    private static final int BATCH = 64;

    private final DumpProgress progress;
    private final List<Node> nodes = new ArrayList<>();
    private final List<Pod> pods = new ArrayList<>();
    private final List<DaemonSet> daemonSets = new ArrayList<>();
    private final Map<String, DaemonSet> seenDaemonSets = new LinkedHashMap<>();
    private final List<PodDisruptionBudget> pdbs = new ArrayList<>();
    private final Map<String, Map<String, String>> namespaces = new HashMap<>();
    private final Map<String, Integer> ignored = new TreeMap<>();
    private final List<Mapped> config = new ArrayList<>(); // MappedConfig and MappedTarget, in dump order
    private final DumpClaims.Facts facts = new DumpClaims.Facts();
    private final Set<String> seen = new HashSet<>();
    private final ArrayDeque<Future<List<Mapped>>> inFlight = new ArrayDeque<>();
    private final int threads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    private ExecutorService pool;
    private List<DumpItem> batch = new ArrayList<>(BATCH);
    private long started;
    private long lastReport;
    private long totalBytes;
    private Path current;
    private java.time.Instant takenAt;
    private DumpReader reader;

    DumpCollector(DumpProgress progress) {
        this.progress = progress == null ? DumpProgress.NONE : progress;
    }

    ClusterDump read(List<Path> paths) {
        started = System.nanoTime();
        lastReport = started;
        List<Path> files = DumpReader.files(paths);
        for (Path f : files) {
            try {
                totalBytes += Files.size(f);
            } catch (java.io.IOException e) {
                throw new DumpException(f + ": cannot read file: " + e.getMessage(), e);
            }
        }
        reader = new DumpReader(this::submit);
        pool = threads > 1 ? Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "dump-mapper");
            t.setDaemon(true);
            return t;
        }) : null;
        try {
            for (Path f : files) {
                current = f;
                reader.read(f);
            }
            flush();
            while (!inFlight.isEmpty()) {
                take();
            }
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
        List<DaemonSet> all = new ArrayList<>(daemonSets);
        Set<String> explicit = new HashSet<>();
        daemonSets.forEach(d -> explicit.add(d.namespace() + "/" + d.name()));
        int inferred = 0;
        for (var e : seenDaemonSets.entrySet()) {
            if (!explicit.contains(e.getKey())) {
                all.add(e.getValue());
                inferred++;
            }
        }
        var claims = DumpClaims.of(nodes, facts);
        List<dev.gantry.core.config.ConfigObject> configObjects = configObjects();
        long millis = (System.nanoTime() - started) / 1_000_000;
        if (millis >= DumpProgress.EVERY.toMillis()) {
            progress.report(String.format("read and mapped %,d objects (%s) in %.1f s: %,d nodes, %,d pods", reader.objects(),
                    mb(reader.bytesRead()), millis / 1000.0, nodes.size(), pods.size()));
        }
        return new ClusterDump(nodes, pods, all, pdbs, namespaces, claims, configObjects, new ClusterDump.Stats(files.size(),
                reader.bytesRead(), reader.objects(), ignored, inferred, facts.hasNodeClaims(), takenAt, millis),
                DumpClaims.images(nodes, facts));
    }

    /**
     * The configuration objects in dump order: every NodePool, EC2NodeClass, NodeOverlay and CapacityBuffer, and the
     * PodTemplates and workloads a buffer names (as the functions get them); the other workloads are counted as ignored.
     */
    private List<dev.gantry.core.config.ConfigObject> configObjects() {
        Set<String> named = new HashSet<>();
        config.forEach(c -> {
            if (c instanceof ItemMapper.MappedConfig m && m.refersTo() != null) {
                named.add(m.refersTo());
            }
        });
        List<dev.gantry.core.config.ConfigObject> out = new ArrayList<>();
        for (Mapped c : config) {
            switch (c) {
                case ItemMapper.MappedTarget t when named.contains(t.key()) -> out.add(ItemMapper.whole(t).object());
                case ItemMapper.MappedTarget t -> ignored.merge(t.kind(), 1, Integer::sum);
                case ItemMapper.MappedConfig m when !ItemMapper.BUFFER_TARGETS.contains(m.object().kind())
                        || named.contains(m.object().key()) -> out.add(m.object());
                case ItemMapper.MappedConfig m -> ignored.merge(m.object().kind(), 1, Integer::sum);
                default -> throw new IllegalStateException("not a configuration object: " + c);
            }
        }
        return out;
    }

    private void submit(DumpItem item) {
        batch.add(item);
        if (batch.size() >= BATCH) {
            flush();
        }
        while (inFlight.size() > 4 * threads) {
            take();
        }
        maybeReport();
    }

    private void flush() {
        if (batch.isEmpty()) {
            return;
        }
        List<DumpItem> work = batch;
        batch = new ArrayList<>(BATCH);
        if (pool == null) {
            work.stream().map(ItemMapper::map).forEach(this::accept);
            return;
        }
        inFlight.add(pool.submit(() -> work.stream().map(ItemMapper::map).toList()));
    }

    private void take() {
        try {
            inFlight.poll().get().forEach(this::accept);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new DumpException(current + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DumpException("interrupted while reading " + current, e);
        }
    }

    private void accept(Mapped m) {
        switch (m) {
            case ItemMapper.MappedNode n -> {
                if (!seen.add("Node/" + n.node().name())) {
                    throw new DumpException("the dump holds Node " + n.node().name() + " twice");
                }
                nodes.add(n.node());
                facts.node(n.node(), n.readySince());
                if (n.heartbeat() != null && (takenAt == null || n.heartbeat().isAfter(takenAt))) {
                    takenAt = n.heartbeat();
                }
            }
            case ItemMapper.MappedPod p -> {
                Pod pod = p.pod();
                if (!seen.add("Pod/" + pod.key())) {
                    throw new DumpException("the dump holds Pod " + pod.key() + " twice");
                }
                pods.add(pod);
                if (p.daemonSet() != null) {
                    seenDaemonSets.putIfAbsent(p.daemonSet().namespace() + "/" + p.daemonSet().name(), p.daemonSet());
                } else if (pod.isBound()) {
                    facts.podEvent(pod.nodeName(), p.scheduledAt() != null ? p.scheduledAt() : pod.status().createdAt());
                    facts.podEvent(pod.nodeName(), pod.status().deletingSince());
                }
            }
            case ItemMapper.MappedDaemonSet d -> daemonSets.add(d.daemonSet());
            case ItemMapper.MappedPdb b -> pdbs.add(b.pdb());
            case ItemMapper.MappedNamespace ns -> namespaces.put(ns.name(), ns.labels());
            case ItemMapper.MappedNodeClaim c -> facts.nodeClaim(c.claim());
            case ItemMapper.MappedConfig c -> {
                if (!seen.add(c.object().key())) {
                    throw new DumpException("the dump holds " + c.object().key() + " twice");
                }
                config.add(c);
            }
            case ItemMapper.MappedTarget t -> {
                if (!seen.add(t.key())) {
                    throw new DumpException("the dump holds " + t.key() + " twice");
                }
                config.add(t);
            }
            case ItemMapper.Ignored i -> ignored.merge(i.kind(), 1, Integer::sum);
            case ItemMapper.Many many -> many.items().forEach(this::accept);
        }
    }

    private void maybeReport() {
        long now = System.nanoTime();
        if (now - lastReport >= DumpProgress.EVERY.toNanos()) {
            lastReport = now;
            progress.report(String.format("reading %s: %,d objects, %s of %s, %.1f s", current.getFileName(), reader.objects(),
                    mb(reader.bytesRead()), mb(totalBytes), (now - started) / 1e9));
        }
    }

    static String mb(long bytes) {
        return bytes < 1 << 20 ? String.format("%,d KB", (bytes + 1023) / 1024) : String.format("%.1f MB", bytes / 1048576.0);
    }
}
