package dev.gantry.aws.ec2;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.ImageKeys;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodeClass.AmiSelectorTerm;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeImagesRequest;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Image;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;

/**
 * Resolves a NodeClass's {@code amiSelectorTerms} to one image per image key ({@link ImageKeys}): aliases and
 * {@code ssmParameter} terms through SSM, then every candidate through DescribeImages (which also proves it exists and
 * gives its architecture, creation date and deprecation time, deprecated images included); of each key, the image
 * {@link #PREFERRED} puts first wins: the newest not deprecated, as Karpenter chooses. An alias's images are keyed by
 * architecture and the variants their parameter serves ({@link AmiAlias#ssmParameters}: {@code amd64/standard},
 * {@code amd64/nvidia}…), every other image by its architecture alone, as Karpenter keys them by their requirements.
 * Cached for a minute (Karpenter's default TTL), so a new {@code @latest} release is picked up promptly.
 */
public final class AmiResolver {
    /**
     * An image and the architecture it runs on ({@code amd64}, {@code arm64}); {@code deprecated} when its deprecation
     * time has passed (Karpenter's {@code status.amis[].deprecated}).
     */
    public record Ami(String id, String name, String arch, Instant created, boolean deprecated) {}

    /**
     * Which of two images of one key wins, as Karpenter's {@code compareAMI} decides (aws
     * {@code pkg/providers/amifamily/ami.go}): one not deprecated over a deprecated one, then the newer, then the name
     * that sorts last; the id last of all, so the choice never depends on the order EC2 answers in.
     */
    static final Comparator<Ami> PREFERRED = Comparator.comparing(Ami::deprecated, Comparator.reverseOrder())
            .thenComparing(Ami::created).thenComparing(Ami::name, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(Ami::id);

    private final Ec2Client ec2;
    private final SsmClient ssm;
    private final String k8sVersion;
    private final TtlCache<List<AmiSelectorTerm>, Map<String, Ami>> cache;
    private final Clock clock;

    public AmiResolver(Ec2Client ec2, SsmClient ssm, String k8sVersion, Clock clock) {
        this.clock = clock;
        this.ec2 = ec2;
        this.ssm = ssm;
        this.k8sVersion = k8sVersion;
        this.cache = new TtlCache<>(clock, Duration.ofMinutes(1));
    }

    /**
     * Image key ({@link ImageKeys}) to image. @throws CloudException (not retryable) when nothing matches, or on a failed
     * call
     */
    public Map<String, Ami> resolve(NodeClass nodeClass) {
        List<AmiSelectorTerm> terms = nodeClass.amiSelectorTerms();
        if (terms.isEmpty()) {
            // v1beta1 NodeClasses may name only the family: the latest image of that family.
            terms = List.of(AmiSelectorTerm.alias(nodeClass.effectiveAmiFamily().toLowerCase(java.util.Locale.ROOT)
                    + "@latest"));
        }
        return cache.get(List.copyOf(terms), this::lookUp);
    }

    private Map<String, Ami> lookUp(List<AmiSelectorTerm> terms) {
        Map<String, Ami> newest = new TreeMap<>();
        try {
            for (AmiSelectorTerm term : terms) {
                Map<String, List<String>> variants = new HashMap<>();
                for (Image image : describe(term, variants)) {
                    Ami ami = new Ami(image.imageId(), image.name(), arch(image.architectureAsString()),
                            image.creationDate() == null ? Instant.EPOCH : Instant.parse(image.creationDate()),
                            image.deprecationTime() != null && !Instant.parse(image.deprecationTime()).isAfter(clock.instant()));
                    List<String> keys = term.serves() != null ? List.of(term.serves())
                            : variants.containsKey(ami.id()) ? variants.get(ami.id()).stream().map(v -> ImageKeys.of(ami.arch(), v)).toList()
                            : List.of(ami.arch());
                    for (String key : keys) {
                        newest.merge(key, ami, (a, b) -> PREFERRED.compare(a, b) >= 0 ? a : b);
                    }
                }
            }
        } catch (SdkException e) {
            throw Ec2Errors.toCloud("resolving AMIs", e);
        }
        if (newest.isEmpty()) {
            throw new CloudException("AmiNotFound", "no AMI matches amiSelectorTerms " + terms, false);
        }
        return Map.copyOf(newest);
    }

    /** The images {@code term} selects; for an alias, {@code variants} gets each image's variants by id. */
    private List<Image> describe(AmiSelectorTerm term, Map<String, List<String>> variants) {
        DescribeImagesRequest.Builder request = DescribeImagesRequest.builder();
        List<Filter> filters = new ArrayList<>();
        if (term.alias() != null || term.ssmParameter() != null) {
            if (term.alias() != null) {
                AmiAlias.parse(term.alias()).ssmParameters(k8sVersion).forEach((name, served) -> parameter(name)
                        .ifPresent(id -> variants.computeIfAbsent(id, k -> new ArrayList<>()).addAll(served)));
            }
            List<String> ids = term.alias() != null ? List.copyOf(variants.keySet())
                    : parameter(term.ssmParameter()).stream().toList();
            if (ids.isEmpty()) {
                return List.of();
            }
            filters.add(SelectorFilters.filter("image-id", ids.stream().sorted().toArray(String[]::new)));
        }
        if (term.id() != null) {
            filters.add(SelectorFilters.filter("image-id", term.id()));
        }
        if (term.name() != null) {
            filters.add(SelectorFilters.filter("name", term.name()));
            // Karpenter's default owners for a name term: images we own and Amazon's.
            request.owners(term.owner() != null ? List.of(term.owner()) : List.of("self", "amazon"));
        } else if (term.owner() != null) {
            request.owners(term.owner());
        }
        new TreeMap<>(term.tags()).forEach((k, v) -> filters.add("*".equals(v)
                ? SelectorFilters.filter("tag-key", k) : SelectorFilters.filter("tag:" + k, v)));
        filters.add(SelectorFilters.filter("state", "available"));
        // Deprecated images too, as Karpenter asks: a pinned image stays usable past its deprecation (AWS deprecates
        // public images two years after creation), and PREFERRED puts a current one first where both match.
        request.includeDeprecated(true);
        return ec2.describeImagesPaginator(request.filters(filters).build()).images().stream().toList();
    }

    private Optional<String> parameter(String name) {
        try {
            return Optional.ofNullable(ssm.getParameter(r -> r.name(name)).parameter().value());
        } catch (ParameterNotFoundException e) {
            return Optional.empty(); // e.g. no arm64 build of this version: that architecture has no image
        }
    }

    private static String arch(String ec2Arch) {
        return switch (ec2Arch == null ? "" : ec2Arch) {
            case "arm64" -> "arm64";
            case "x86_64" -> "amd64";
            default -> ec2Arch;
        };
    }
}
