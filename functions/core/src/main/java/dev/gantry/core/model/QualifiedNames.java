package dev.gantry.core.model;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * The API server's syntax for object metadata (apimachinery {@code validation.IsQualifiedName},
 * {@code IsValidLabelValue}, {@code ValidateAnnotations}): label, taint and annotation keys are qualified names (an
 * optional DNS-subdomain prefix of at most 253 characters, a slash, and a name of at most 63), label values are names
 * or empty, and an object's annotations total at most 256 KiB. The one statement of these rules: the config checks,
 * the simulated kubelet and the in-memory API server all use it.
 */
public final class QualifiedNames {
    /** The API server's cap on an object's annotations, keys and values together. */
    public static final int MAX_ANNOTATIONS_BYTES = 256 * 1024;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private QualifiedNames() {
    }

    /** A key: {@code [prefix/]name}. */
    public static boolean isQualifiedName(String key) {
        int slash = key.indexOf('/');
        return (slash < 0 || isDnsSubdomain(key.substring(0, slash))) && isName(slash < 0 ? key : key.substring(slash + 1));
    }

    /** A key's prefix: a lower-case DNS subdomain of at most 253 characters. */
    public static boolean isDnsSubdomain(String prefix) {
        return !prefix.isEmpty() && prefix.length() <= 253 && DNS_SUBDOMAIN.matcher(prefix).matches();
    }

    /** A key's name part: at most 63 alphanumerics, '-', '_' or '.', beginning and ending alphanumeric. */
    public static boolean isName(String name) {
        return !name.isEmpty() && name.length() <= 63 && NAME.matcher(name).matches();
    }

    /** A label value: empty, or a name. */
    public static boolean isLabelValue(String value) {
        return value.isEmpty() || isName(value);
    }

    /** Why the API server refuses these annotations, in its words, or null. */
    public static String annotationsProblem(Map<String, String> annotations) {
        long size = 0;
        for (Map.Entry<String, String> e : annotations.entrySet()) {
            if (!isQualifiedName(e.getKey())) {
                return "metadata.annotations: Invalid value: \"" + e.getKey() + "\": name part must consist of alphanumeric "
                        + "characters, '-', '_' or '.', and must start and end with an alphanumeric character";
            }
            size += e.getKey().length() + e.getValue().length();
        }
        return size > MAX_ANNOTATIONS_BYTES ? "metadata.annotations: Too long: must have at most " + MAX_ANNOTATIONS_BYTES
                + " bytes" : null;
    }

    /** Why the API server refuses these labels, in its words, or null. */
    public static String labelsProblem(Map<String, String> labels) {
        for (Map.Entry<String, String> e : labels.entrySet()) {
            if (!isQualifiedName(e.getKey())) {
                return "metadata.labels: Invalid value: \"" + e.getKey() + "\": name part must consist of alphanumeric "
                        + "characters, '-', '_' or '.', and must start and end with an alphanumeric character";
            }
            if (!isLabelValue(e.getValue())) {
                return "metadata.labels: Invalid value: \"" + e.getValue() + "\": a valid label must be an empty string or "
                        + "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                        + "character";
            }
        }
        return null;
    }
}
