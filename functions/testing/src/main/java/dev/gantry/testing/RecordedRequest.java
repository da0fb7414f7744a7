package dev.gantry.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One request the {@link AwsStub} received, as sent on the wire.
 *
 * @param method    HTTP method
 * @param path      the path, without the query string
 * @param headers   header names in lower case, each with its values in order
 * @param params    query-protocol parameters (EC2, STS): the form body and the query string, URL-decoded, sorted
 * @param body      the raw body as UTF-8 text (JSON for SSM, Pricing and EKS)
 */
public record RecordedRequest(String method, String path, Map<String, List<String>> headers,
                              SortedMap<String, String> params, String body) {
    public RecordedRequest {
        headers = Map.copyOf(headers);
        params = Collections.unmodifiableSortedMap(new TreeMap<>(params));
    }

    /** The query-protocol {@code Action}, else the JSON-protocol {@code X-Amz-Target}, else "METHOD path". */
    public String action() {
        String action = params.get("Action");
        if (action != null) {
            return action;
        }
        return target().orElse(method + " " + path);
    }

    /** The {@code X-Amz-Target} header of JSON-protocol services, such as {@code AmazonSSM.GetParameter}. */
    public Optional<String> target() {
        return header("x-amz-target");
    }

    /** The first value of a header, by case-insensitive name. */
    public Optional<String> header(String name) {
        List<String> values = headers.get(name.toLowerCase(java.util.Locale.ROOT));
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    /** A query-protocol parameter, or null when absent. */
    public String param(String name) {
        return params.get(name);
    }

    /** The parameters whose names start with {@code prefix}, prefix kept, sorted by name. */
    public SortedMap<String, String> paramsWithPrefix(String prefix) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(params.subMap(prefix, prefix + Character.MAX_VALUE)));
    }

    /**
     * The values of an EC2 query list in index order: {@code values("InstanceId")} reads InstanceId.1, InstanceId.2, ...
     */
    public List<String> values(String prefix) {
        List<String> values = new ArrayList<>();
        for (int i = 1; params.containsKey(prefix + "." + i); i++) {
            values.add(params.get(prefix + "." + i));
        }
        return values;
    }

    /**
     * The members of an EC2 query list of structures in index order, each as its fields relative to the member:
     * {@code members("Filter")} turns Filter.1.Name and Filter.1.Value.1 into [{Name=.., Value.1=..}].
     */
    public List<SortedMap<String, String>> members(String prefix) {
        List<SortedMap<String, String>> members = new ArrayList<>();
        for (int i = 1; ; i++) {
            String memberPrefix = prefix + "." + i + ".";
            SortedMap<String, String> fields = new TreeMap<>();
            paramsWithPrefix(memberPrefix).forEach((k, v) -> fields.put(k.substring(memberPrefix.length()), v));
            if (fields.isEmpty()) {
                return members;
            }
            members.add(Collections.unmodifiableSortedMap(fields));
        }
    }

    /** EC2 filters ({@code Filter.N.Name}, {@code Filter.N.Value.M}) as name to values, in request order. */
    public Map<String, List<String>> filters() {
        Map<String, List<String>> filters = new java.util.LinkedHashMap<>();
        for (SortedMap<String, String> filter : members("Filter")) {
            List<String> values = new ArrayList<>();
            for (int i = 1; filter.containsKey("Value." + i); i++) {
                values.add(filter.get("Value." + i));
            }
            filters.put(filter.get("Name"), List.copyOf(values));
        }
        return filters;
    }
}
