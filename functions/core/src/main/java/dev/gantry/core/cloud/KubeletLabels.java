package dev.gantry.core.cloud;

import dev.gantry.core.model.QualifiedNames;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which node labels a kubelet may register its Node with ({@code --node-labels} for AL2023's nodeadm,
 * {@code settings.kubernetes.node-labels} for Bottlerocket), as the kubelet decides it at start-up (Kubernetes
 * {@code k8s.io/kubelet/pkg/apis/well_known_labels.go} and the kubelet's flag validation) and the NodeRestriction
 * admission plugin enforces it afterwards:
 * <ul>
 *   <li>a key in the {@code kubernetes.io} or {@code k8s.io} domain (or a subdomain of either) is refused unless it is
 *       in the kubelet's allowed set ({@link #KUBELET_SET}) or in a {@code kubelet.kubernetes.io} or
 *       {@code node.kubernetes.io} namespace (or a subdomain of one): "unknown 'kubernetes.io' or 'k8s.io' labels
 *       specified with --node-labels", and the kubelet does not start, so the node never joins;</li>
 *   <li>{@code node-restriction.kubernetes.io} is such a domain: only an administrator (Gantry) may set it;</li>
 *   <li>a key that is not a qualified name, or a value that is not a valid label value, is refused too ("invalid node
 *       labels").</li>
 * </ul>
 * The labels the kubelet would refuse are kept out of the user data ({@link #forUserData}) and set on the Node object
 * when the sweep registers it, as Karpenter's AWS provider does ({@code RejectForbiddenLabels}, which leaves out every
 * label of those domains; Gantry keeps the kubelet's own allowed ones in the user data, because it has no
 * {@code karpenter.sh/unregistered} taint holding pods off a node until its labels are synced).
 */
public final class KubeletLabels {
    /** The keys of the {@code kubernetes.io} and {@code k8s.io} domains a kubelet may set on its own Node. */
    public static final Set<String> KUBELET_SET = Set.of("kubernetes.io/hostname", "topology.kubernetes.io/zone",
            "topology.kubernetes.io/region", "failure-domain.beta.kubernetes.io/zone",
            "failure-domain.beta.kubernetes.io/region", "beta.kubernetes.io/instance-type",
            "node.kubernetes.io/instance-type", "kubernetes.io/os", "kubernetes.io/arch", "beta.kubernetes.io/os",
            "beta.kubernetes.io/arch");
    /** The namespaces (and their subdomains) of those domains a kubelet may set labels in. */
    public static final List<String> KUBELET_NAMESPACES = List.of("kubelet.kubernetes.io", "node.kubernetes.io");

    private KubeletLabels() {
    }

    /** Whether {@code key}'s prefix is the {@code kubernetes.io} or {@code k8s.io} domain, or a subdomain of either. */
    public static boolean isKubernetesDomain(String key) {
        String domain = domain(key);
        return inDomain(domain, "kubernetes.io") || inDomain(domain, "k8s.io");
    }

    /** Whether a kubelet starts with {@code key} among its node labels (its value aside). */
    public static boolean kubeletMaySet(String key) {
        if (!isKubernetesDomain(key) || KUBELET_SET.contains(key)) {
            return true;
        }
        String domain = domain(key);
        return KUBELET_NAMESPACES.stream().anyMatch(ns -> inDomain(domain, ns));
    }

    /**
     * Why a kubelet given these node labels would refuse to start, or null when it starts: the unknown
     * {@code kubernetes.io}/{@code k8s.io} keys, or the first invalid key or value, worded as the kubelet logs it.
     */
    public static String refusal(Map<String, String> labels) {
        List<String> unknown = new TreeMap<>(labels).keySet().stream().filter(k -> !kubeletMaySet(k)).toList();
        if (!unknown.isEmpty()) {
            return "failed to validate kubelet flags: unknown 'kubernetes.io' or 'k8s.io' labels specified with "
                    + "--node-labels: " + unknown;
        }
        for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
            if (!QualifiedNames.isQualifiedName(e.getKey())) {
                return "invalid node labels: '" + e.getKey() + "' - not a qualified name";
            }
            if (!QualifiedNames.isLabelValue(e.getValue())) {
                return "invalid node labels: '" + e.getKey() + "' - value '" + e.getValue() + "' is not a valid label value";
            }
        }
        return null;
    }

    /** The labels a kubelet accepts, in key order: the rest are the registration's to set. */
    public static Map<String, String> forUserData(Map<String, String> labels) {
        Map<String, String> out = new TreeMap<>();
        labels.forEach((k, v) -> {
            if (kubeletMaySet(k)) {
                out.put(k, v);
            }
        });
        return out;
    }

    private static String domain(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? "" : key.substring(0, slash);
    }

    private static boolean inDomain(String domain, String of) {
        return domain.equals(of) || domain.endsWith("." + of);
    }
}
