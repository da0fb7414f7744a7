package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodeClass.Kubelet;
import dev.gantry.core.model.Quantity;
import java.util.Map;
import java.util.Set;

/** Reads an EC2NodeClass's {@code kubelet} block under Karpenter's CRD rules. */
public final class KubeletReader {
    private static final Set<String> SIGNALS = Set.of("memory.available", "nodefs.available", "nodefs.inodesFree",
            "imagefs.available", "imagefs.inodesFree", "pid.available");
    private static final Set<String> RESERVED = Set.of("cpu", "memory", "ephemeral-storage", "pid");

    private KubeletReader() {
    }

    public static Kubelet read(YamlObject k) {
        if (k == null) {
            return null;
        }
        k.allow("maxPods", "podsPerCore", "kubeReserved", "systemReserved", "evictionHard", "evictionSoft",
                "evictionSoftGracePeriod", "evictionMaxPodGracePeriod", "clusterDNS", "imageGCHighThresholdPercent",
                "imageGCLowThresholdPercent", "cpuCFSQuota");
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
