package dev.gantry.aws.ec2;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import com.fasterxml.jackson.dataformat.toml.TomlReadFeature;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.Taint;
import java.io.UncheckedIOException;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Bottlerocket user data: TOML {@code [settings.kubernetes]} over the NodeClass's own TOML, as Karpenter builds it
 * (pkg/providers/amifamily/bootstrap/bottlerocket.go): the cluster name, API server and certificate always
 * overwrite the user's; node labels merge (ours win); node taints are exactly ours; kubelet settings the NodeClass
 * sets overwrite. Every other setting of the user's passes through untouched.
 *
 * <p>Under {@code instanceStorePolicy: RAID0}, the bootstrap command {@value #MOUNT_INSTANCE_STORAGE} (Karpenter's name)
 * has Bottlerocket stripe the NVMe instance-store disks ({@code apiclient ephemeral-storage init}) and bind the
 * kubelet's, containerd's and pod logs' directories onto them. The directories are named, as Karpenter names them for
 * Bottlerocket releases before the default bind; the named form serves every release with {@code ephemeral-storage}.
 *
 * <p>Jackson's TOML module reads and writes the document. It writes every value as one dotted-key line
 * ({@code settings.kubernetes.node-labels."karpenter.sh/nodepool" = 'p1'}) where Karpenter's encoder writes
 * {@code [table]} headers; Bottlerocket reads both the same.
 */
final class BottlerocketUserData {
    /** Dates parse as java.time values, so they can be refused rather than silently turned into strings. */
    private static final TomlMapper TOML = TomlMapper.builder().enable(TomlReadFeature.PARSE_JAVA_TIME).build();
    private static final TypeReference<LinkedHashMap<String, Object>> DOCUMENT = new TypeReference<>() {};

    /** The bootstrap command's key, as Karpenter writes it. */
    static final String MOUNT_INSTANCE_STORAGE = "000-mount-instance-storage";

    private BottlerocketUserData() {}

    static String render(BootstrapOptions o) {
        Map<String, Object> root = parse(o.customUserData());
        Map<String, Object> k8s = table(table(root, "settings"), "kubernetes");
        k8s.put("cluster-name", o.clusterName());
        k8s.put("api-server", o.endpoint());
        k8s.put("cluster-certificate", o.certificateAuthority());
        k8s.put("cluster-dns-ip", o.dnsIp());
        k8s.put("max-pods", o.maxPods());
        kubelet(k8s, o.kubelet());
        Map<String, Object> labels = table(k8s, "node-labels");
        o.labels().forEach(labels::put);
        // Karpenter replaces node-taints wholesale: a taint the user wrote here would bypass the NodePool.
        Map<String, Object> taints = new LinkedHashMap<>();
        for (Taint t : o.taints()) {
            @SuppressWarnings("unchecked")
            List<Object> values = (List<Object>) taints.computeIfAbsent(t.key(), x -> new ArrayList<>());
            values.add(t.value() + ":" + t.effect());
        }
        k8s.remove("node-taints");
        if (!taints.isEmpty()) {
            k8s.put("node-taints", taints);
        }
        if (o.raid0()) {
            Map<String, Object> command = new LinkedHashMap<>();
            command.put("commands", List.of(List.of("apiclient", "ephemeral-storage", "init"),
                    List.of("apiclient", "ephemeral-storage", "bind", "--dirs", "/var/lib/containerd", "/var/lib/kubelet",
                            "/var/log/pods")));
            command.put("essential", true);
            command.put("mode", "always");
            table(table(root, "settings"), "bootstrap-commands").put(MOUNT_INSTANCE_STORAGE, command);
        }
        try {
            return TOML.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e); // only strings, numbers, booleans, lists and maps get here
        }
    }

    /**
     * The NodeClass's TOML as nested maps in document order.
     *
     * @throws IllegalArgumentException naming the line and column of malformed TOML, or the key of a value Gantry
     *                                  cannot write back unchanged (dates and times, inf and nan)
     */
    static Map<String, Object> parse(String text) {
        if (text == null || text.isBlank()) {
            return new LinkedHashMap<>();
        }
        Map<String, Object> root;
        try {
            root = TOML.readValue(text, DOCUMENT);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw new IllegalArgumentException("userData TOML" + where + ": " + e.getOriginalMessage());
        }
        checkWritable("", root == null ? Map.of() : root);
        return root == null ? new LinkedHashMap<>() : root;
    }

    private static void checkWritable(String key, Object value) {
        if (value instanceof Map<?, ?> m) {
            m.forEach((k, v) -> checkWritable(key.isEmpty() ? String.valueOf(k) : key + "." + k, v));
        } else if (value instanceof List<?> list) {
            list.forEach(v -> checkWritable(key, v));
        } else if (value instanceof TemporalAccessor) {
            throw new IllegalArgumentException("userData TOML: " + key + ": dates and times are not supported");
        } else if (value instanceof Double d && !Double.isFinite(d)) {
            throw new IllegalArgumentException("userData TOML: " + key + ": inf and nan are not supported");
        }
    }

    private static void kubelet(Map<String, Object> k8s, NodeClass.Kubelet k) {
        putMap(k8s, "kube-reserved", BootstrapOptions.kube(k.kubeReserved()));
        putMap(k8s, "system-reserved", BootstrapOptions.kube(k.systemReserved()));
        putMap(k8s, "eviction-hard", k.evictionHard());
        putMap(k8s, "eviction-soft", k.evictionSoft());
        putMap(k8s, "eviction-soft-grace-period", k.evictionSoftGracePeriod());
        if (k.imageGCHighThresholdPercent() != null) {
            k8s.put("image-gc-high-threshold-percent", String.valueOf(k.imageGCHighThresholdPercent()));
        }
        if (k.imageGCLowThresholdPercent() != null) {
            k8s.put("image-gc-low-threshold-percent", String.valueOf(k.imageGCLowThresholdPercent()));
        }
        if (k.cpuCFSQuota() != null) {
            k8s.put("cpu-cfs-quota-enforced", k.cpuCFSQuota());
        }
    }

    private static void putMap(Map<String, Object> into, String key, Map<String, String> values) {
        if (!values.isEmpty()) {
            into.put(key, new LinkedHashMap<String, Object>(new TreeMap<>(values)));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> table(Map<String, Object> parent, String key) {
        Object t = parent.computeIfAbsent(key, x -> new LinkedHashMap<String, Object>());
        if (!(t instanceof Map)) {
            throw new IllegalArgumentException("userData TOML: '" + key + "' must be a table");
        }
        return (Map<String, Object>) t;
    }
}
