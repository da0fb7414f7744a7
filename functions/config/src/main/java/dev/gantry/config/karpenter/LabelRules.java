package dev.gantry.config.karpenter;

import dev.gantry.core.model.QualifiedNames;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.Set;

/**
 * Kubernetes' label syntax and Karpenter v1.14's restricted labels (the CEL rules of the NodePool CRD on template labels
 * and requirement keys, which mirror {@code RestrictedLabelDomains} and {@code RestrictedLabels} in its
 * {@code pkg/apis/v1/labels.go}): a key whose domain ends in {@code karpenter.sh} or {@code karpenter.k8s.aws} must be
 * one of the CRD's listed exceptions; {@code kubernetes.io/hostname} and {@code karpenter.sh/nodepool} are always
 * restricted. Since Karpenter v1.9 the {@code kubernetes.io} and {@code k8s.io} domains are open.
 */
public final class LabelRules {
    private LabelRules() {
    }

    /** Why {@code key} is not a valid label (or taint) key, or null. */
    public static String keySyntaxProblem(String key) {
        return keySyntaxProblem(key, "label");
    }

    /**
     * Why {@code key} is not a valid key of that kind, or null: labels, taints and annotations share the syntax of a
     * qualified name (an optional DNS-subdomain prefix and a name of up to 63 characters), which the API server checks.
     */
    public static String keySyntaxProblem(String key, String kind) {
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            if (!QualifiedNames.isDnsSubdomain(prefix)) {
                return "'" + key + "' is not a valid " + kind + " key: prefix '" + prefix + "' is not a DNS subdomain";
            }
        }
        if (!QualifiedNames.isName(name)) {
            return "'" + key + "' is not a valid " + kind + " key (name part: up to 63 alphanumerics, '-', '_' or '.', "
                    + "starting and ending alphanumeric)";
        }
        return null;
    }

    /** Why {@code value} is not a valid label value, or null. The empty value is valid. */
    public static String valueProblem(String value) {
        if (value.isEmpty()) {
            return null;
        }
        if (!QualifiedNames.isName(value)) {
            return "'" + value + "' is not a valid label value (up to 63 alphanumerics, '-', '_' or '.', "
                    + "starting and ending alphanumeric)";
        }
        return null;
    }

    /**
     * Keys of the {@code karpenter.sh} domain the CRD allows: its list also names {@code karpenter.sh/nodepool}, which a
     * rule of its own then refuses, so only the capacity type is left.
     */
    private static final Set<String> KARPENTER_SH_EXCEPTIONS = Set.of(WellKnownLabels.CAPACITY_TYPE);
    /** Keys of the {@code karpenter.k8s.aws} domain the v1.14 CRD allows (listed in its order). */
    private static final Set<String> KARPENTER_K8S_AWS_EXCEPTIONS = Set.of("karpenter.k8s.aws/instance-tenancy",
            "karpenter.k8s.aws/capacity-reservation-type", "karpenter.k8s.aws/capacity-reservation-id",
            "karpenter.k8s.aws/capacity-reservation-interruptible", "karpenter.k8s.aws/ec2nodeclass",
            "karpenter.k8s.aws/instance-encryption-in-transit-supported", "karpenter.k8s.aws/instance-category",
            "karpenter.k8s.aws/instance-hypervisor", "karpenter.k8s.aws/instance-family",
            "karpenter.k8s.aws/instance-generation", "karpenter.k8s.aws/instance-local-nvme",
            "karpenter.k8s.aws/instance-size", "karpenter.k8s.aws/instance-cpu",
            "karpenter.k8s.aws/instance-cpu-manufacturer", "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz",
            "karpenter.k8s.aws/instance-memory", "karpenter.k8s.aws/instance-ebs-bandwidth",
            "karpenter.k8s.aws/instance-network-bandwidth", "karpenter.k8s.aws/instance-gpu-name",
            "karpenter.k8s.aws/instance-gpu-manufacturer", "karpenter.k8s.aws/instance-gpu-count",
            "karpenter.k8s.aws/instance-gpu-memory", "karpenter.k8s.aws/instance-accelerator-name",
            "karpenter.k8s.aws/instance-accelerator-manufacturer", "karpenter.k8s.aws/instance-accelerator-count",
            "karpenter.k8s.aws/instance-capability-flex", "karpenter.k8s.aws/placement-group-id",
            "karpenter.k8s.aws/placement-group-partition");

    /**
     * Why Karpenter forbids {@code key} in a NodePool's requirements or template labels, or null. The domain is the
     * part before the first {@code /} (the whole key without one), compared by suffix as the CRD's
     * {@code find("^([^/]+)").endsWith(...)} does.
     */
    public static String restrictedProblem(String key) {
        if (key.equals(WellKnownLabels.HOSTNAME)) {
            return "label \"kubernetes.io/hostname\" is restricted";
        }
        if (key.equals(WellKnownLabels.NODEPOOL)) {
            return "label \"karpenter.sh/nodepool\" is restricted";
        }
        int slash = key.indexOf('/');
        String domain = slash < 0 ? key : key.substring(0, slash);
        if (domain.endsWith("karpenter.sh") && !KARPENTER_SH_EXCEPTIONS.contains(key)) {
            return "label domain \"karpenter.sh\" is restricted" + didYouMean(key);
        }
        if (domain.endsWith("karpenter.k8s.aws") && !KARPENTER_K8S_AWS_EXCEPTIONS.contains(key)) {
            return "label domain \"karpenter.k8s.aws\" is restricted" + didYouMean(key);
        }
        return null;
    }

    /** Every key Karpenter and Kubernetes give a meaning to, for suggestions. */
    private static final Set<String> WELL_KNOWN_KEYS;

    static {
        Set<String> all = new java.util.TreeSet<>(KARPENTER_K8S_AWS_EXCEPTIONS);
        all.addAll(KARPENTER_SH_EXCEPTIONS);
        all.addAll(WellKnownLabels.WELL_KNOWN);
        all.remove(WellKnownLabels.NODEPOOL);
        all.remove(WellKnownLabels.HOSTNAME);
        WELL_KNOWN_KEYS = java.util.Collections.unmodifiableSet(all);
    }

    /** {@code "; did you mean "k"?"} when {@code key} is a near miss of a well-known key, else empty. */
    static String didYouMean(String key) {
        String near = dev.gantry.config.yaml.Suggest.closest(key, WELL_KNOWN_KEYS);
        return near == null ? "" : "; did you mean \"" + near + "\"?";
    }

    /**
     * A warning for a key Karpenter accepts as a custom label but that is one or two letters away from a well-known one
     * ({@code topology.kubernetes.io/zones}): a pool requiring it sets a label nothing reads, and leaves the real key
     * unconstrained. Null for an exact well-known key, a restricted key (an error of its own) and anything else.
     */
    public static String nearMissWarning(String key) {
        if (WELL_KNOWN_KEYS.contains(key) || restrictedProblem(key) != null) {
            return null;
        }
        String hint = didYouMean(key);
        return hint.isEmpty() ? null : "\"" + key + "\" is not a well-known label (a custom label the nodes will carry)" + hint;
    }
}
