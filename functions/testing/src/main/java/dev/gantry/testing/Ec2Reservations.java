package dev.gantry.testing;

import dev.gantry.testing.Ec2Resources.Filterable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The stub's capacity reservations (ODCRs and Capacity Blocks) and its DescribeCapacityReservations, as strict as
 * EC2 on what Gantry depends on:
 * <ul>
 *   <li>{@code CapacityReservationId.N} names reservations; an id of the wrong form is
 *       {@code InvalidCapacityReservationId.Malformed}, an unknown one {@code InvalidCapacityReservationId.NotFound}
 *       (the whole call fails, as for instances).</li>
 *   <li>{@code MaxResults} (1 to 1000) with {@code NextToken} pages the answer; MaxResults together with ids is
 *       refused ({@code InvalidParameterCombination}; Karpenter's provider leaves it out for that reason).</li>
 *   <li>Filters: {@code state}, {@code owner-id}, {@code instance-type}, {@code availability-zone},
 *       {@code instance-match-criteria}, {@code tenancy}, {@code end-date-type}, {@code tag:<key>}, {@code tag-key};
 *       values are alternatives with {@code *}/{@code ?} wildcards, filters are ANDed.</li>
 *   <li>A reservation's {@code availableInstanceCount} falls as instances launch into it and rises as they
 *       terminate; a launch beyond it fails ({@link #take}). CreateFleet from a launch template whose
 *       {@code CapacityReservationTarget} names a reservation takes a slot per instance and answers
 *       {@code ReservationCapacityExceeded} in its error set for an override once the reservation is full.</li>
 * </ul>
 * Not modelled: a target whose instance type or zone differs from the override's (EC2 refuses it), the fleet's
 * DefaultTargetCapacityType checked against the reservation's kind, instance platforms other than Linux/UNIX, tenancy other than default, Outposts and placement groups,
 * start dates in the future (every reservation is already active), cancellation, EC2 moving an {@code expired}
 * reservation out of {@code active} on its own (a test sets the state), shared reservations' cross-account view, and
 * the other filters (start-date, end-date, placement-group-arn, outpost-arn, instance-platform).
 */
public final class Ec2Reservations {
    private static final Pattern ID = Pattern.compile("cr-[0-9a-f]{8,17}");
    private static final int MAX_RESULTS = 1000;
    private final Map<String, Reservation> byId = new LinkedHashMap<>();

    /**
     * One reservation. {@code reservationType} is {@code default} or {@code capacity-block}; {@code endTime} null for
     * an unlimited one; {@code state} an EC2 state ({@code active}, {@code expired}, {@code cancelled}…).
     */
    public record Reservation(String id, String instanceType, String zone, String ownerId, String matchCriteria,
                              String reservationType, boolean interruptible, Instant endTime, int total, int available,
                              String state, Map<String, String> tags) implements Filterable {
        public Reservation {
            tags = new TreeMap<>(tags);
        }

        /** An active, targeted, default-type reservation of {@code total} instances owned by the stub's account. */
        public static Reservation targeted(String id, String type, String zone, int total) {
            return new Reservation(id, type, zone, Ec2State.ACCOUNT, "targeted", "default", false, null, total, total,
                    "active", Map.of());
        }

        public Reservation withAvailable(int n) {
            return new Reservation(id, instanceType, zone, ownerId, matchCriteria, reservationType, interruptible, endTime,
                    total, n, state, tags);
        }

        public Reservation withState(String s) {
            return new Reservation(id, instanceType, zone, ownerId, matchCriteria, reservationType, interruptible, endTime,
                    total, available, s, tags);
        }

        @Override
        public List<String> attribute(String filterName) {
            return switch (filterName) {
                case "state" -> List.of(state);
                case "owner-id" -> List.of(ownerId);
                case "instance-type" -> List.of(instanceType);
                case "availability-zone" -> List.of(zone);
                case "instance-match-criteria" -> List.of(matchCriteria);
                case "tenancy" -> List.of("default");
                case "end-date-type" -> List.of(endTime == null ? "unlimited" : "limited");
                default -> List.of();
            };
        }
    }

    public synchronized Ec2Reservations add(Reservation r) {
        byId.put(r.id(), r);
        return this;
    }

    public synchronized Reservation get(String id) {
        return byId.get(id);
    }

    public synchronized List<Reservation> all() {
        return List.copyOf(byId.values());
    }

    /**
     * One instance launched into {@code id}: false (and nothing taken) when the reservation is unknown, not active or
     * full, which EC2 answers with {@code ReservationCapacityExceeded} or {@code InsufficientInstanceCapacity}.
     */
    public synchronized boolean take(String id) {
        Reservation r = byId.get(id);
        if (r == null || !"active".equals(r.state()) || r.available() < 1) {
            return false;
        }
        byId.put(id, r.withAvailable(r.available() - 1));
        return true;
    }

    private final Map<String, String> templateTargets = new LinkedHashMap<>();
    private final Map<String, String> instanceIn = new LinkedHashMap<>();

    /** A launch template whose {@code CapacityReservationTarget} names {@code reservationId}. */
    synchronized void targetedBy(String templateId, String reservationId) {
        templateTargets.put(templateId, reservationId);
    }

    /** The reservation a launch template targets, or null. */
    synchronized String targetOf(String templateId) {
        return templateTargets.get(templateId);
    }

    /** {@code instanceId} runs in {@code reservationId} (it took a slot), so its termination frees the slot. */
    synchronized void holds(String instanceId, String reservationId) {
        instanceIn.put(instanceId, reservationId);
    }

    /** The reservation {@code instanceId} runs in, or null. */
    public synchronized String reservationOf(String instanceId) {
        return instanceIn.get(instanceId);
    }

    /** {@code instanceId} terminated: the slot it held, if any, is free again (once). */
    synchronized void terminated(String instanceId) {
        String id = instanceIn.remove(instanceId);
        if (id != null) {
            release(id);
        }
    }

    /**
     * The reservation ends ({@code expired}, {@code cancelled}): its instances leave it and run on as on-demand, as EC2
     * moves them (DescribeInstances no longer names the reservation).
     */
    public synchronized void end(String id, String state) {
        Reservation r = byId.get(id);
        if (r != null) {
            byId.put(id, r.withState(state).withAvailable(0));
            instanceIn.values().removeIf(id::equals);
        }
    }

    /** An instance of {@code id} terminated: its slot is free again. */
    public synchronized void release(String id) {
        Reservation r = byId.get(id);
        if (r != null && r.available() < r.total()) {
            byId.put(id, r.withAvailable(r.available() + 1));
        }
    }

    synchronized StubResponse describe(RecordedRequest q) {
        List<String> ids = q.values("CapacityReservationId");
        String max = q.param("MaxResults");
        if (max != null && !ids.isEmpty()) {
            return Ec2Responses.error("InvalidParameterCombination",
                    "The parameter CapacityReservationIds cannot be used with the parameter MaxResults");
        }
        int pageSize;
        try {
            pageSize = max == null ? Integer.MAX_VALUE : Integer.parseInt(max);
        } catch (NumberFormatException e) {
            pageSize = -1;
        }
        if (max != null && (pageSize < 1 || pageSize > MAX_RESULTS)) {
            return Ec2Responses.error("InvalidParameterValue", "Value ( " + max + " ) for parameter maxResults is "
                    + "invalid. Parameter must be between 1 and " + MAX_RESULTS + ".");
        }
        for (String id : ids) {
            if (!ID.matcher(id).matches()) {
                return Ec2Responses.error("InvalidCapacityReservationId.Malformed",
                        "Invalid id: \"" + id + "\" (expecting \"cr-...\")");
            }
            if (!byId.containsKey(id)) {
                return Ec2Responses.error("InvalidCapacityReservationId.NotFound",
                        "The capacity reservation ID '" + id + "' does not exist");
            }
        }
        Map<String, List<String>> filters = q.filters();
        List<Reservation> matched = new ArrayList<>();
        for (Reservation r : byId.values()) {
            if ((ids.isEmpty() || ids.contains(r.id())) && filters.entrySet().stream().allMatch(f ->
                    r.filterValues(f.getKey()).stream().anyMatch(v -> matches(f.getValue(), v)))) {
                matched.add(r);
            }
        }
        int from = 0;
        String token = q.param("NextToken");
        if (token != null) {
            try {
                from = Integer.parseInt(token.substring("page-".length()));
            } catch (RuntimeException e) {
                return Ec2Responses.error("InvalidParameterValue", "Invalid NextToken: " + token);
            }
        }
        int to = (int) Math.min(matched.size(), (long) from + pageSize);
        List<Reservation> page = matched.subList(Math.min(from, matched.size()), to);
        String next = to < matched.size() ? "page-" + to : null;
        return Ec2Responses.ok("DescribeCapacityReservations", x -> {
            if (next != null) {
                x.leaf("nextToken", next);
            }
            x.open("capacityReservationSet");
            for (Reservation r : page) {
                x.open("item").leaf("capacityReservationId", r.id()).leaf("ownerId", r.ownerId())
                        .leaf("capacityReservationArn", "arn:aws:ec2:us-east-1:" + r.ownerId() + ":capacity-reservation/" + r.id())
                        .leaf("instanceType", r.instanceType()).leaf("instancePlatform", "Linux/UNIX")
                        .leaf("availabilityZone", r.zone()).leaf("tenancy", "default")
                        .leaf("totalInstanceCount", r.total()).leaf("availableInstanceCount", r.available())
                        .leaf("ebsOptimized", true).leaf("ephemeralStorage", false).leaf("state", r.state())
                        .leaf("startDate", Instant.parse("2025-01-01T00:00:00Z"))
                        .leaf("endDateType", r.endTime() == null ? "unlimited" : "limited");
                if (r.endTime() != null) {
                    x.leaf("endDate", r.endTime());
                }
                x.leaf("instanceMatchCriteria", r.matchCriteria()).leaf("createDate", Instant.parse("2025-01-01T00:00:00Z"))
                        .leaf("reservationType", r.reservationType()).leaf("interruptible", r.interruptible())
                        .tagSet(r.tags()).close("item");
            }
            x.close("capacityReservationSet");
        });
    }

    private static boolean matches(List<String> patterns, String value) {
        return patterns.stream().anyMatch(p -> Pattern.compile(
                ("\\Q" + p + "\\E").replace("*", "\\E.*\\Q").replace("?", "\\E.\\Q")).matcher(value).matches());
    }
}
