package dev.gantry.aws.ec2;

import dev.gantry.core.model.NodeClass.SelectorTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.ec2.model.Filter;

/**
 * Turns one NodeClass selector term into EC2 Describe filters. Terms are alternatives (one Describe per term, results
 * unioned); the fields of one term all apply (the filters of one call are ANDed), as in Karpenter.
 */
final class SelectorFilters {
    private SelectorFilters() {}

    /**
     * @param idFilter   the resource's id filter ({@code subnet-id}, {@code group-id})
     * @param nameFilter the filter a term's {@code name} maps to ({@code tag:Name} for subnets, {@code group-name}
     *                   for security groups)
     */
    static List<Filter> of(SelectorTerm term, String idFilter, String nameFilter) {
        List<Filter> filters = new ArrayList<>();
        if (term.id() != null) {
            filters.add(filter(idFilter, term.id()));
        }
        if (term.name() != null) {
            filters.add(filter(nameFilter, term.name()));
        }
        for (Map.Entry<String, String> tag : new TreeMap<>(term.tags()).entrySet()) {
            // "*" means "has the tag, any value": EC2 expresses that with tag-key.
            filters.add("*".equals(tag.getValue()) ? filter("tag-key", tag.getKey())
                    : filter("tag:" + tag.getKey(), tag.getValue()));
        }
        if (filters.isEmpty()) {
            throw new IllegalArgumentException("a selector term needs an id, a name or tags");
        }
        return filters;
    }

    static Filter filter(String name, String... values) {
        return Filter.builder().name(name).values(values).build();
    }
}
