package dev.gantry.testing.iam;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One authorization AWS makes while serving an API call: an action on one resource, with the request context's
 * condition keys. A call that touches several resources (CreateFleet: fleet, instance, volume, launch template,
 * image, subnet...) is several of these, and is allowed only if every one of them is.
 *
 * @param action   {@code service:Action}, as IAM names it ({@code ec2:CreateFleet})
 * @param resource the resource's ARN, {@code type/*} for one that does not exist yet, or {@code *} for actions
 *                 without resource-level permissions
 * @param context  condition keys to their values; a key absent here is absent from the request. Single-valued keys
 *                 hold one value. Key names are case-insensitive in IAM and are stored in lower case.
 */
public record IamRequest(String action, String resource, Map<String, List<String>> context) {
    public IamRequest {
        TreeMap<String, List<String>> keys = new TreeMap<>();
        context.forEach((k, v) -> keys.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
        context = java.util.Collections.unmodifiableSortedMap(keys);
    }

    /** The values of a condition key, or null when the request does not carry it. */
    public List<String> values(String key) {
        return context.get(key.toLowerCase(Locale.ROOT));
    }

    @Override
    public String toString() {
        return action + " on " + resource + " " + context;
    }
}
