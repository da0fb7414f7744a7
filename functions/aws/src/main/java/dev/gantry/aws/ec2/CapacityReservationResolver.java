package dev.gantry.aws.ec2;

import dev.gantry.core.model.NodeClass.CapacityReservationSelectorTerm;
import dev.gantry.core.reservation.CapacityReservation;
import dev.gantry.core.reservation.CapacityReservations;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeCapacityReservationsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeCapacityReservationsResponse;
import software.amazon.awssdk.services.ec2.model.Filter;

/**
 * {@link CapacityReservations} over EC2 DescribeCapacityReservations, as Karpenter's capacity reservation provider
 * queries it (aws {@code pkg/providers/capacityreservation/types.go}): a term by id is one call naming the id (no
 * MaxResults, which EC2 refuses with ids); any other term is one call with the filters {@code owner-id},
 * {@code tag:<key>} (or {@code tag-key} for {@code *}), {@code instance-match-criteria}, MaxResults 1000 and every
 * page followed. Every call filters {@code state=active}. An id EC2 does not know
 * ({@code InvalidCapacityReservationId.NotFound}) selects nothing. Results are deduplicated by id, ordered by id,
 * and those past their end time dropped. Each term's answer is cached for a minute, as the other selector lookups are.
 */
public final class CapacityReservationResolver implements CapacityReservations {
    static final Duration TTL = Duration.ofMinutes(1);
    /** DescribeCapacityReservations' largest page. */
    static final int PAGE = 1000;

    private final Ec2Client ec2;
    private final Clock clock;
    private final TtlCache<CapacityReservationSelectorTerm, List<CapacityReservation>> cache;

    public CapacityReservationResolver(Ec2Client ec2, Clock clock) {
        this.ec2 = ec2;
        this.clock = clock;
        this.cache = new TtlCache<>(clock, TTL);
    }

    /** @throws dev.gantry.core.cloud.CloudException when a call fails (anything but an unknown id) */
    @Override
    public List<CapacityReservation> select(List<CapacityReservationSelectorTerm> terms) {
        Map<String, CapacityReservation> found = new LinkedHashMap<>();
        for (CapacityReservationSelectorTerm term : terms) {
            for (CapacityReservation r : cache.get(term, this::describe)) {
                found.putIfAbsent(r.id(), r);
            }
        }
        return found.values().stream().filter(r -> !r.ended(clock.instant()))
                .sorted(Comparator.comparing(CapacityReservation::id)).toList();
    }

    /** Forgets the cached answers, so the next {@link #select} asks EC2 (after a launch used up a count). */
    public void refresh(List<CapacityReservationSelectorTerm> terms) {
        terms.forEach(cache::invalidate);
    }

    private List<CapacityReservation> describe(CapacityReservationSelectorTerm term) {
        List<CapacityReservation> out = new ArrayList<>();
        try {
            if (term.id() != null) {
                DescribeCapacityReservationsResponse page = ec2.describeCapacityReservations(
                        DescribeCapacityReservationsRequest.builder().capacityReservationIds(term.id())
                                .filters(SelectorFilters.filter("state", "active")).build());
                page.capacityReservations().forEach(r -> out.add(of(r)));
                return out;
            }
            ec2.describeCapacityReservationsPaginator(DescribeCapacityReservationsRequest.builder()
                            .filters(filters(term)).maxResults(PAGE).build())
                    .capacityReservations().forEach(r -> out.add(of(r)));
        } catch (SdkException e) {
            if (term.id() != null && Ec2Errors.classify(e) == Ec2Errors.Kind.NOT_FOUND) {
                return List.of();
            }
            throw Ec2Errors.toCloud("DescribeCapacityReservations", e);
        }
        return out;
    }

    private static List<Filter> filters(CapacityReservationSelectorTerm term) {
        List<Filter> filters = new ArrayList<>();
        filters.add(SelectorFilters.filter("state", "active"));
        if (term.ownerId() != null) {
            filters.add(SelectorFilters.filter("owner-id", term.ownerId()));
        }
        for (Map.Entry<String, String> tag : new TreeMap<>(term.tags()).entrySet()) {
            filters.add("*".equals(tag.getValue()) ? SelectorFilters.filter("tag-key", tag.getKey())
                    : SelectorFilters.filter("tag:" + tag.getKey(), tag.getValue()));
        }
        if (term.instanceMatchCriteria() != null) {
            filters.add(SelectorFilters.filter("instance-match-criteria", term.instanceMatchCriteria()));
        }
        return filters;
    }

    private static CapacityReservation of(software.amazon.awssdk.services.ec2.model.CapacityReservation r) {
        return new CapacityReservation(r.capacityReservationId(), r.instanceType(), r.availabilityZone(), r.ownerId(),
                r.instanceMatchCriteriaAsString(), r.reservationTypeAsString() == null ? CapacityReservation.TYPE_DEFAULT
                        : r.reservationTypeAsString(), Boolean.TRUE.equals(r.interruptible()), r.endDate(),
                r.availableInstanceCount() == null ? 0 : Math.max(0, r.availableInstanceCount()));
    }
}
