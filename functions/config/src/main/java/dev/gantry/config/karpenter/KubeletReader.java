package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodeClass.Kubelet;
import dev.gantry.core.model.Quantity;
import java.util.Map;
import java.util.Set;

/**
 * Reads a {@code kubelet} block under Karpenter's CRD rules: an EC2NodeClass's, a v1beta1 NodePool's
 * {@code template.spec.kubelet}, or a v1alpha5 Provisioner's {@code kubeletConfiguration}.
 */
public final class KubeletReader {
    /** Where the block is written, which decides the fields beyond Karpenter's own twelve that are accepted. */
    public enum Schema {
        /**
         * An EC2NodeClass: Karpenter after v1.14.1 takes any upstream {@code KubeletConfiguration} field and passes the
         * ones it does not read through to user data. Gantry accepts them with a warning each (it does not pass them
         * on), and still refuses a near miss of one of Karpenter's own fields as a typo.
         */
        EC2_NODE_CLASS,
        /** A v1beta1 NodePool's {@code template.spec.kubelet}: Karpenter's fields only. */
        V1BETA1_NODE_POOL,
        /** A v1alpha5 Provisioner's {@code kubeletConfiguration}: Karpenter's fields and {@code containerRuntime}. */
        V1ALPHA5_PROVISIONER
    }

    private static final Set<String> FIELDS = Set.of("maxPods", "podsPerCore", "kubeReserved", "systemReserved",
            "evictionHard", "evictionSoft", "evictionSoftGracePeriod", "evictionMaxPodGracePeriod", "clusterDNS",
            "imageGCHighThresholdPercent", "imageGCLowThresholdPercent", "cpuCFSQuota");
    private static final Set<String> SIGNALS = Set.of("memory.available", "nodefs.available", "nodefs.inodesFree",
            "imagefs.available", "imagefs.inodesFree", "pid.available");
    private static final Set<String> RESERVED = Set.of("cpu", "memory", "ephemeral-storage", "pid");

    private KubeletReader() {
    }

    public static Kubelet read(YamlObject k, Schema schema) {
        if (k == null) {
            return null;
        }
        switch (schema) {
            case V1BETA1_NODE_POOL -> k.allow(FIELDS);
            case V1ALPHA5_PROVISIONER -> {
                Set<String> allowed = new java.util.HashSet<>(FIELDS);
                allowed.add("containerRuntime");
                k.allow(allowed);
                if (k.has("containerRuntime")) {
                    k.string("containerRuntime");
                    k.warn("containerRuntime", "containerRuntime was removed in Karpenter v1beta1 (nodes run containerd); ignored");
                }
            }
            case EC2_NODE_CLASS -> {
                for (String key : k.keys()) {
                    if (FIELDS.contains(key)) {
                        continue;
                    }
                    String near = dev.gantry.config.yaml.Suggest.closest(key, FIELDS);
                    if (near != null) {
                        k.errorAtKey(key, "unknown field \"" + key + "\", did you mean \"" + near + "\"?");
                    } else {
                        k.warn(key, "Gantry does not pass kubelet." + key + " to the node yet; ignored");
                    }
                }
            }
        }
        Integer maxPods = nonNegative(k, "maxPods");
        Integer podsPerCore = nonNegative(k, "podsPerCore");
        Map<String, Quantity> kubeReserved = reserved(k, "kubeReserved");
        Map<String, Quantity> systemReserved = reserved(k, "systemReserved");
        Map<String, String> hard = signals(k, "evictionHard");
        Map<String, String> soft = signals(k, "evictionSoft");
        Map<String, String> grace = signals(k, "evictionSoftGracePeriod");
        if (grace != null) {
            YamlObject g = k.object("evictionSoftGracePeriod");
            grace.keySet().forEach(key -> g.duration(key, false));
        }
        if (soft != null && (grace == null || !grace.keySet().containsAll(soft.keySet()))) {
            k.error("evictionSoft", "every evictionSoft signal needs an evictionSoftGracePeriod");
        }
        Integer high = percent(k, "imageGCHighThresholdPercent");
        Integer low = percent(k, "imageGCLowThresholdPercent");
        if (high != null && low != null && low >= high) {
            k.error("imageGCLowThresholdPercent", "must be less than imageGCHighThresholdPercent (" + high + ")");
        }
        k.integer("evictionMaxPodGracePeriod");
        return new Kubelet(maxPods, podsPerCore, kubeReserved, systemReserved, hard, soft, grace, k.strings("clusterDNS"),
                high, low, k.bool("cpuCFSQuota"));
    }

    private static Integer nonNegative(YamlObject k, String key) {
        Integer v = k.integer(key);
        if (v != null && v < 0) {
            k.error(key, "must not be negative, got " + v);
        }
        return v;
    }

    private static Integer percent(YamlObject k, String key) {
        Integer v = k.integer(key);
        if (v != null && (v < 0 || v > 100)) {
            k.error(key, "must be between 0 and 100, got " + v);
        }
        return v;
    }

    private static Map<String, Quantity> reserved(YamlObject k, String key) {
        Map<String, Quantity> m = k.quantityMap(key);
        if (m != null) {
            YamlObject o = k.object(key);
            for (String name : o.keys()) {
                if (!RESERVED.contains(name)) {
                    o.errorAtKey(name, "valid keys for " + key + " are [cpu, memory, ephemeral-storage, pid]");
                }
            }
        }
        return m;
    }

    private static Map<String, String> signals(YamlObject k, String key) {
        Map<String, String> m = k.stringMap(key);
        if (m != null) {
            YamlObject o = k.object(key);
            for (String name : m.keySet()) {
                if (!SIGNALS.contains(name)) {
                    o.errorAtKey(name, "valid keys for " + key + " are " + new java.util.TreeSet<>(SIGNALS));
                }
            }
        }
        return m;
    }
}
