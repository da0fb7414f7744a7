package dev.gantry.aws.ec2;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.Taint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * AL2023 user data: a MIME multipart document whose last part is Gantry's nodeadm {@code NodeConfig}
 * ({@code node.eks.aws/v1alpha1}), after the NodeClass's own user data, as Karpenter builds it
 * (pkg/providers/amifamily/bootstrap/nodeadm.go). nodeadm merges NodeConfig parts in order, so ours, being last,
 * wins on the cluster details, labels and taints; a NodeClass shell script part runs as well.
 *
 * <p>Labels go in the {@code --node-labels} kubelet flag, taints in the kubelet config's {@code registerWithTaints}
 * (Karpenter's choice: the node registers already tainted, so nothing schedules before it is ready). Under
 * {@code instanceStorePolicy: RAID0}, {@code spec.instance.localStorage.strategy: RAID0} has nodeadm stripe the NVMe
 * instance-store disks and mount the array for the kubelet, containerd and pod logs.
 *
 * <p>The YAML is written by SnakeYAML Engine in block style. nodeadm reads it as YAML 1.1 (sigs.k8s.io/yaml), where
 * {@code on}, {@code yes}, {@code 0x1F} or {@code 1_000} are not strings, so the dumper is told those forms are not
 * plain strings and quotes them.
 */
final class NodeadmUserData {
    /** Plain scalars YAML 1.1 reads as booleans, nulls or numbers (SnakeYAML Engine's core schema is YAML 1.2's). */
    private static final Pattern YAML_1_1_NOT_STRING = Pattern.compile("(?i)y|n|yes|no|on|off|true|false|null|~|"
            + "[-+]?(\\d[\\d_]*\\.?[\\d_]*([eE][-+]?\\d+)?|\\.\\d+|0x[\\p{XDigit}_]+|0o?[0-7_]+|0b[01_]+|\\d[\\d_]*(:[0-5]?\\d)+(\\.\\d*)?)"
            + "|[-+]?\\.(inf|nan)");
    private static final DumpSettings YAML = DumpSettings.builder().setDefaultFlowStyle(FlowStyle.BLOCK)
            .setWidth(Integer.MAX_VALUE).setSplitLines(false).setSchema(new Yaml11SafeSchema()).build();

    private NodeadmUserData() {}

    static String render(BootstrapOptions o) {
        List<MimeArchive.Part> parts = new ArrayList<>(custom(o.customUserData()));
        parts.add(new MimeArchive.Part(MimeArchive.NODE_CONFIG, nodeConfig(o)));
        return new MimeArchive(parts).serialize();
    }

    /** The NodeClass user data as parts: its own parts when MIME, else one NodeConfig or shell part. */
    static List<MimeArchive.Part> custom(String userData) {
        if (userData == null || userData.isBlank()) {
            return List.of();
        }
        if (MimeArchive.looksLikeMime(userData)) {
            return MimeArchive.parse(userData).parts();
        }
        String t = userData.strip();
        boolean nodeConfig = !t.startsWith("#!") && t.contains("apiVersion:") && t.contains("kind:");
        return List.of(new MimeArchive.Part(nodeConfig ? MimeArchive.NODE_CONFIG : MimeArchive.SHELL, userData));
    }

    static String nodeConfig(BootstrapOptions o) {
        Map<String, Object> cluster = new LinkedHashMap<>();
        cluster.put("apiServerEndpoint", o.endpoint());
        cluster.put("certificateAuthority", o.certificateAuthority());
        cluster.put("cidr", o.serviceCidr());
        cluster.put("name", o.clusterName());
        Map<String, Object> kubelet = new LinkedHashMap<>();
        kubelet.put("config", kubeletConfig(o));
        if (!o.labels().isEmpty()) {
            String labels = o.labels().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(","));
            kubelet.put("flags", List.of("--node-labels=\"" + labels + "\""));
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("cluster", cluster);
        if (o.raid0()) {
            spec.put("instance", Map.of("localStorage", Map.of("strategy", "RAID0")));
        }
        spec.put("kubelet", kubelet);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("apiVersion", "node.eks.aws/v1alpha1");
        doc.put("kind", "NodeConfig");
        doc.put("spec", spec);
        // A Dump per document: its representer keeps state while it works, so one is not shared between threads.
        return "# Gantry generated NodeConfig\n" + new Dump(YAML).dumpToString(doc);
    }

    /** The kubelet configuration fields, in the order Karpenter's marshalled KubeletConfiguration has them. */
    private static Map<String, Object> kubeletConfig(BootstrapOptions o) {
        NodeClass.Kubelet k = o.kubelet();
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("clusterDNS", List.of(o.dnsIp()));
        putIfSet(c, "cpuCFSQuota", k.cpuCFSQuota());
        putIfAny(c, "evictionHard", k.evictionHard());
        putIfAny(c, "evictionSoft", k.evictionSoft());
        putIfAny(c, "evictionSoftGracePeriod", k.evictionSoftGracePeriod());
        putIfSet(c, "imageGCHighThresholdPercent", k.imageGCHighThresholdPercent());
        putIfSet(c, "imageGCLowThresholdPercent", k.imageGCLowThresholdPercent());
        putIfAny(c, "kubeReserved", BootstrapOptions.kube(k.kubeReserved()));
        c.put("maxPods", o.maxPods());
        putIfSet(c, "podsPerCore", k.podsPerCore());
        List<Map<String, Object>> taints = new ArrayList<>();
        for (Taint t : o.taints()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("effect", t.effect().name());
            m.put("key", t.key());
            if (!t.value().isEmpty()) {
                m.put("value", t.value());
            }
            taints.add(m);
        }
        c.put("registerWithTaints", taints);
        putIfAny(c, "systemReserved", BootstrapOptions.kube(k.systemReserved()));
        return c;
    }

    private static void putIfSet(Map<String, Object> into, String key, Object value) {
        if (value != null) {
            into.put(key, value);
        }
    }

    private static void putIfAny(Map<String, Object> into, String key, Map<String, String> values) {
        if (!values.isEmpty()) {
            into.put(key, new TreeMap<>(values));
        }
    }

    /** YAML 1.2 core schema, except that a string YAML 1.1 would read as something else is not left plain. */
    private static final class Yaml11SafeSchema extends CoreSchema {
        private final ScalarResolver core = super.getScalarResolver();

        @Override
        public ScalarResolver getScalarResolver() {
            return (value, implicit) -> {
                Tag tag = core.resolve(value, implicit);
                return implicit && tag.equals(Tag.STR) && YAML_1_1_NOT_STRING.matcher(value).matches() ? Tag.NULL : tag;
            };
        }
    }
}
