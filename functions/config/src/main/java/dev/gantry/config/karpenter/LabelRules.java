package dev.gantry.config.karpenter;

import dev.gantry.core.requirements.WellKnownLabels;
import java.util.regex.Pattern;

/**
 * Kubernetes' label syntax and Karpenter's restricted label domains (the CEL rules on a NodePool's requirements and
 * template labels): a key in {@code kubernetes.io}, {@code k8s.io}, {@code karpenter.sh} or {@code karpenter.k8s.aws}
 * must be a well-known label, except the {@code node.kubernetes.io} and {@code node-restriction.kubernetes.io}
 * sub-domains; {@code kubernetes.io/hostname} is always restricted.
 */
public final class LabelRules {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private LabelRules() {
    }

    /** Why {@code key} is not a valid label (or taint) key, or null. */
    public static String keySyntaxProblem(String key) {
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            if (prefix.length() > 253 || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
                return "'" + key + "' is not a valid label key: prefix '" + prefix + "' is not a DNS subdomain";
            }
        }
        if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches()) {
            return "'" + key + "' is not a valid label key (name part: up to 63 alphanumerics, '-', '_' or '.', "
                    + "starting and ending alphanumeric)";
        }
        return null;
    }

    /** Why {@code value} is not a valid label value, or null. The empty value is valid. */
    public static String valueProblem(String value) {
        if (value.isEmpty()) {
            return null;
        }
        if (value.length() > 63 || !NAME.matcher(value).matches()) {
            return "'" + value + "' is not a valid label value (up to 63 alphanumerics, '-', '_' or '.', "
                    + "starting and ending alphanumeric)";
        }
        return null;
    }

    /** Why Karpenter forbids {@code key} in a NodePool's requirements or template labels, or null. */
    public static String restrictedProblem(String key) {
        if (key.equals(WellKnownLabels.HOSTNAME)) {
            return "label \"kubernetes.io/hostname\" is restricted";
        }
        if (WellKnownLabels.WELL_KNOWN.contains(WellKnownLabels.normalize(key))) {
            return null;
        }
        int slash = key.indexOf('/');
        if (slash < 0) {
            return null;
        }
        String domain = key.substring(0, slash);
        if (domain.endsWith("node.kubernetes.io") || domain.endsWith("node-restriction.kubernetes.io")) {
            return null;
        }
        for (String restricted : new String[] {"kubernetes.io", "k8s.io", "karpenter.sh", "karpenter.k8s.aws"}) {
            if (domain.equals(restricted) || domain.endsWith("." + restricted)) {
                return "label domain \"" + restricted + "\" is restricted";
            }
        }
        return null;
    }
}
