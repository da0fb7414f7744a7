package dev.gantry.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The stub's DescribeInstanceTypes, as strict as EC2:
 * <ul>
 *   <li>{@code InstanceType.N} names at most 100 types; if any is unknown the whole call fails with
 *       {@code InvalidInstanceType} ("The following supplied instance types do not exist: [...]").</li>
 *   <li>{@code Filter.N} (instance-type with {@code *}/{@code ?} wildcards, processor-info.supported-architecture,
 *       supported-usage-class, current-generation, bare-metal, hypervisor, vcpu/memory) narrow the answer.</li>
 *   <li>{@code MaxResults} is 5 to 100 ({@code InvalidParameterValue} otherwise); without it a page holds 100. A
 *       longer answer carries {@code nextToken}; an unknown token is {@code InvalidParameterValue}.</li>
 * </ul>
 * Each item has DescribeInstanceTypes' real shape ({@link Ec2InstanceTypeShape}): the types are those added to the
 * {@link Ec2State}, with the full shape given by {@link #put} or one derived from their basic facts.
 *
 * <p>Not modelled: the fields no Gantry caller reads (placement groups, Nitro TPM, media accelerators, FPGAs), and the
 * Describe rate limit (the stub does not throttle; tests program throttling with {@code AwsStub#on}).
 */
public final class Ec2DescribeInstanceTypes {
    static final int MAX_NAMES = 100;
    static final int MAX_PAGE = 100;
    static final int MIN_PAGE = 5;

    private final Ec2State state;
    private final Map<String, Ec2InstanceTypeShape> shapes = new ConcurrentHashMap<>();

    Ec2DescribeInstanceTypes(Ec2State state) {
        this.state = state;
    }

    /** Gives a type its full shape; the type itself (its offerings) is added with {@link Ec2State#addInstanceType}. */
    public Ec2DescribeInstanceTypes put(Ec2InstanceTypeShape shape) {
        shapes.put(shape.name(), shape);
        return this;
    }

    StubResponse answer(RecordedRequest q) {
        List<Ec2InstanceTypeShape> all = state.instanceTypes().stream()
                .map(t -> Optional.ofNullable(shapes.get(t.name())).orElseGet(() -> Ec2InstanceTypeShape.of(t))).toList();
        List<String> names = q.values("InstanceType");
        if (names.size() > MAX_NAMES) {
            return Ec2Responses.error("InvalidParameterValue", "The maximum number of instance types is " + MAX_NAMES);
        }
        List<String> unknown = names.stream().filter(n -> all.stream().noneMatch(t -> t.name().equals(n))).toList();
        if (!unknown.isEmpty()) {
            return Ec2Responses.error("InvalidInstanceType", "The following supplied instance types do not exist: "
                    + unknown);
        }
        int page = MAX_PAGE;
        String max = q.param("MaxResults");
        if (max != null) {
            try {
                page = Integer.parseInt(max);
            } catch (NumberFormatException e) {
                page = -1;
            }
            if (page < MIN_PAGE || page > MAX_PAGE) {
                return Ec2Responses.error("InvalidParameterValue", "Value ( " + max + " ) for parameter maxResults is "
                        + "invalid. Parameter must be between " + MIN_PAGE + " and " + MAX_PAGE + ".");
            }
        }
        Map<String, List<String>> filters = q.filters();
        List<Ec2InstanceTypeShape> selected = new ArrayList<>();
        for (Ec2InstanceTypeShape t : all) {
            if ((names.isEmpty() || names.contains(t.name())) && filters.entrySet().stream()
                    .allMatch(f -> t.attribute(f.getKey()).stream().anyMatch(v -> matches(f.getValue(), v)))) {
                selected.add(t);
            }
        }
        int from = 0;
        String token = q.param("NextToken");
        if (token != null) {
            try {
                from = Integer.parseInt(token.replaceFirst("^it-", ""));
            } catch (NumberFormatException e) {
                from = -1;
            }
            if (!token.startsWith("it-") || from < 0 || from > selected.size()) {
                return Ec2Responses.error("InvalidParameterValue", "Invalid NextToken: " + token);
            }
        }
        int to = Math.min(selected.size(), from + page);
        List<Ec2InstanceTypeShape> items = selected.subList(from, to);
        String next = to < selected.size() ? "it-" + to : null;
        return Ec2Responses.ok("DescribeInstanceTypes", x -> {
            x.open("instanceTypeSet");
            items.forEach(t -> t.write(x));
            x.close("instanceTypeSet");
            x.leaf("nextToken", next);
        });
    }

    private static boolean matches(List<String> patterns, String value) {
        return patterns.stream().anyMatch(p -> Pattern.compile(
                ("\\Q" + p + "\\E").replace("*", "\\E.*\\Q").replace("?", "\\E.\\Q")).matcher(value).matches());
    }
}
