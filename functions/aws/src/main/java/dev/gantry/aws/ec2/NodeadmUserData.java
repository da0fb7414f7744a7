package dev.gantry.aws.ec2;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * AL2023 user data: a MIME multipart document whose last part is Gantry's nodeadm {@code NodeConfig}
 * ({@code node.eks.aws/v1alpha1}), after the NodeClass's own user data, as Karpenter builds it
 * (pkg/providers/amifamily/bootstrap/nodeadm.go). nodeadm merges NodeConfig parts in order, so ours, being last,
 * wins on the cluster details, labels and taints; a NodeClass shell script part runs as well.
 *
 * <p>Labels go in the {@code --node-labels} kubelet flag, taints in the kubelet config's {@code registerWithTaints}
 * (Karpenter's choice: the node registers already tainted, so nothing schedules before it is ready).
 */
final class NodeadmUserData {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9./:_=%-]*");

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
        StringBuilder y = new StringBuilder("# Gantry generated NodeConfig\n")
                .append("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n")
                .append("    apiServerEndpoint: ").append(scalar(o.endpoint())).append('\n')
                .append("    certificateAuthority: ").append(scalar(o.certificateAuthority())).append('\n')
                .append("    cidr: ").append(scalar(o.serviceCidr())).append('\n')
                .append("    name: ").append(scalar(o.clusterName())).append('\n')
                .append("  kubelet:\n    config:\n");
        kubeletConfig(y, o);
        if (!o.labels().isEmpty()) {
            String labels = o.labels().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(","));
            y.append("    flags:\n    - ").append(scalar("--node-labels=\"" + labels + "\"")).append('\n');
        }
        return y.toString();
    }

    private static void kubeletConfig(StringBuilder y, BootstrapOptions o) {
        NodeClass.Kubelet k = o.kubelet();
        y.append("      clusterDNS:\n      - ").append(scalar(o.dnsIp())).append('\n');
        if (k.cpuCFSQuota() != null) {
            y.append("      cpuCFSQuota: ").append(k.cpuCFSQuota()).append('\n');
        }
        map(y, "evictionHard", k.evictionHard());
        map(y, "evictionSoft", k.evictionSoft());
        map(y, "evictionSoftGracePeriod", k.evictionSoftGracePeriod());
        if (k.imageGCHighThresholdPercent() != null) {
            y.append("      imageGCHighThresholdPercent: ").append(k.imageGCHighThresholdPercent()).append('\n');
        }
        if (k.imageGCLowThresholdPercent() != null) {
            y.append("      imageGCLowThresholdPercent: ").append(k.imageGCLowThresholdPercent()).append('\n');
        }
        map(y, "kubeReserved", BootstrapOptions.kube(k.kubeReserved()));
        y.append("      maxPods: ").append(o.maxPods()).append('\n');
        if (k.podsPerCore() != null) {
            y.append("      podsPerCore: ").append(k.podsPerCore()).append('\n');
        }
        if (o.taints().isEmpty()) {
            y.append("      registerWithTaints: []\n");
        } else {
            y.append("      registerWithTaints:\n");
            for (Taint t : o.taints()) {
                y.append("      - effect: ").append(t.effect()).append("\n        key: ").append(scalar(t.key())).append('\n');
                if (!t.value().isEmpty()) {
                    y.append("        value: ").append(scalar(t.value())).append('\n');
                }
            }
        }
        map(y, "systemReserved", BootstrapOptions.kube(k.systemReserved()));
    }

    private static void map(StringBuilder y, String name, Map<String, String> values) {
        if (values.isEmpty()) {
            return;
        }
        y.append("      ").append(name).append(":\n");
        new TreeMap<>(values).forEach((k, v) -> y.append("        ").append(scalar(k)).append(": ").append(scalar(v)).append('\n'));
    }

    /** A YAML scalar: plain when unambiguous, else single-quoted (which needs only '' escaping). */
    static String scalar(String s) {
        // Words YAML 1.1 reads as booleans or null, and anything shaped like a number, must stay strings.
        boolean ambiguous = s.matches("(?i)true|false|yes|no|y|n|on|off|null|~")
                || s.matches("[-+]?(\\d[\\d_]*\\.?\\d*([eE][-+]?\\d+)?|\\.\\d+|0x\\p{XDigit}+|0o[0-7]+)");
        return PLAIN.matcher(s).matches() && !ambiguous ? s : "'" + s.replace("'", "''") + "'";
    }
}
