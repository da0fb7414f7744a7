package dev.gantry.testing;

import dev.gantry.testing.Ec2InstanceStatuses.Check;
import dev.gantry.testing.Ec2InstanceStatuses.Event;
import dev.gantry.testing.Ec2Resources.Instance;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * DescribeInstanceStatus, as EC2 answers it (API reference, DescribeInstanceStatus; EC2 API throttling guide):
 * <ul>
 *   <li><b>Selection.</b> Running instances only unless {@code IncludeAllInstances=true} (then any not terminated),
 *       those EC2 lists already ({@link Ec2State#describable}); by {@code InstanceId.N} and by filters, values within a
 *       filter OR-ed, filters AND-ed. Filters modelled: {@code instance-status.status},
 *       {@code system-status.status}, {@code instance-status.reachability}, {@code system-status.reachability}
 *       ({@code passed}/{@code failed}), {@code event.code}, {@code availability-zone}, {@code instance-state-name}.
 *       A filter EC2 knows that the stub does not model is refused ({@code InvalidParameterValue}, "(stub)"), so a
 *       test never passes on a filter silently ignored; an unknown one is refused as EC2 refuses it.</li>
 *   <li><b>Pagination.</b> {@code MaxResults} 5 to 1000 ({@code InvalidParameterValue} otherwise), never with
 *       {@code InstanceId} ({@code InvalidParameterCombination}); without it, one page of everything. The
 *       {@code NextToken} is opaque and bound to the request's filters: another request's token, or a made-up one, is
 *       {@code InvalidPaginationToken}.</li>
 *   <li><b>Errors.</b> An unknown id: {@code InvalidInstanceID.NotFound}; a malformed one:
 *       {@code InvalidInstanceID.Malformed}.</li>
 *   <li><b>Throttling.</b> Request token buckets per account and region, one token a request: an unfiltered and
 *       unpaginated request (no filter, no MaxResults, no NextToken) draws on a bucket of 50 refilled at 10 a second;
 *       a filtered or paginated one on the non-mutating bucket of 100 refilled at 20 a second. An empty bucket answers
 *       HTTP 503 {@code RequestLimitExceeded}, as EC2 does (the SDK retries it).</li>
 * </ul>
 * Not modelled: the {@code initializing} and {@code insufficient-data} statuses of a new instance (every instance is
 * {@code ok} until a test impairs it), EBS status checks ({@code attachedEbsStatus}), filters on event times and
 * descriptions, the account-wide sharing of the non-mutating bucket with other Describe calls (each action has its own
 * buckets here), and completed events ageing out of the listing.
 */
final class Ec2InstanceStatusAction {
    static final int UNFILTERED_BUCKET = 50;
    static final double UNFILTERED_REFILL = 10;
    static final int NON_MUTATING_BUCKET = 100;
    static final double NON_MUTATING_REFILL = 20;
    private static final Pattern ID = Pattern.compile("i-[0-9a-f]{8}([0-9a-f]{9})?");
    private static final Set<String> MODELLED = Set.of("instance-status.status", "system-status.status",
            "instance-status.reachability", "system-status.reachability", "event.code", "availability-zone",
            "instance-state-name");
    private static final Set<String> KNOWN_UNMODELLED = Set.of("event.description", "event.instance-event-id",
            "event.not-after", "event.not-before", "instance-state-code", "attached-ebs-status.status");

    private final Ec2State state;
    private final Clock clock;
    private final TokenBucket unfiltered;
    private final TokenBucket nonMutating;

    Ec2InstanceStatusAction(Ec2State state, Clock clock) {
        this.state = state;
        this.clock = clock;
        this.unfiltered = new TokenBucket(UNFILTERED_BUCKET, UNFILTERED_REFILL, clock.instant());
        this.nonMutating = new TokenBucket(NON_MUTATING_BUCKET, NON_MUTATING_REFILL, clock.instant());
    }

    StubResponse answer(RecordedRequest q) {
        Instant now = clock.instant();
        Map<String, List<String>> filters = q.filters();
        String max = q.param("MaxResults");
        String token = q.param("NextToken");
        boolean plain = filters.isEmpty() && max == null && token == null;
        if (!(plain ? unfiltered : nonMutating).take(now)) {
            return new StubResponse(503, "text/xml;charset=UTF-8", Ec2Responses.error("RequestLimitExceeded",
                    "Request limit exceeded.").body());
        }
        List<String> ids = q.values("InstanceId");
        if (max != null && !ids.isEmpty()) {
            return Ec2Responses.error("InvalidParameterCombination",
                    "The parameter instancesSet cannot be used with the parameter maxResults");
        }
        int pageSize = Integer.MAX_VALUE;
        if (max != null) {
            try {
                pageSize = Integer.parseInt(max);
            } catch (NumberFormatException e) {
                pageSize = -1;
            }
            if (pageSize < 5 || pageSize > 1000) {
                return Ec2Responses.error("InvalidParameterValue", "Value ( " + max + " ) for parameter maxResults is "
                        + "invalid. Parameter must be between 5 and 1000.");
            }
        }
        for (String name : filters.keySet()) {
            if (KNOWN_UNMODELLED.contains(name)) {
                return Ec2Responses.error("InvalidParameterValue", "The filter '" + name + "' is not modelled by the stub (stub)");
            }
            if (!MODELLED.contains(name)) {
                return Ec2Responses.error("InvalidParameterValue", "The filter '" + name + "' is invalid");
            }
        }
        for (String id : ids) {
            if (!ID.matcher(id).matches()) {
                return Ec2Responses.error("InvalidInstanceID.Malformed", "Invalid id: \"" + id + "\"");
            }
        }
        List<Instance> listed = state.describable(now);
        List<String> missing = ids.stream().filter(id -> listed.stream().noneMatch(i -> i.id().equals(id))).toList();
        if (!missing.isEmpty()) {
            return Ec2Responses.error("InvalidInstanceID.NotFound",
                    "The instance IDs '" + String.join(", ", missing) + "' do not exist");
        }
        boolean all = "true".equals(q.param("IncludeAllInstances"));
        Ec2InstanceStatuses statuses = state.statuses();
        List<Instance> matching = listed.stream()
                .filter(i -> ids.isEmpty() || ids.contains(i.id()))
                .filter(i -> all ? !i.state().equals("terminated") : i.state().equals("running"))
                .filter(i -> filters.entrySet().stream().allMatch(f -> f.getValue().stream()
                        .anyMatch(v -> values(i, f.getKey(), statuses).contains(v))))
                .sorted(Comparator.comparing(Instance::id)).toList();
        String binding = new TreeMap<>(filters).toString() + "|" + max + "|" + all;
        int from = 0;
        if (token != null) {
            Integer offset = offset(token, binding);
            if (offset == null) {
                return Ec2Responses.error("InvalidPaginationToken", "The specified pagination token is not valid or is expired.");
            }
            from = Math.min(offset, matching.size());
        }
        int to = (int) Math.min((long) from + pageSize, matching.size());
        List<Instance> page = matching.subList(from, to);
        String next = to < matching.size() ? token(to, binding) : null;
        return Ec2Responses.ok("DescribeInstanceStatus", x -> {
            x.open("instanceStatusSet");
            for (Instance i : page) {
                x.open("item").leaf("instanceId", i.id()).leaf("availabilityZone", i.zone());
                x.open("instanceState").leaf("code", code(i.state())).leaf("name", i.state()).close("instanceState");
                check(x, "systemStatus", statuses.systemCheck(i.id()));
                check(x, "instanceStatus", statuses.instanceCheck(i.id()));
                x.open("eventsSet");
                for (Event e : statuses.events(i.id())) {
                    x.open("item").leaf("instanceEventId", e.eventId()).leaf("code", e.code())
                            .leaf("description", e.description()).leaf("notBefore", e.notBefore())
                            .leaf("notAfter", e.notAfter()).close("item");
                }
                x.close("eventsSet").close("item");
            }
            x.close("instanceStatusSet").leaf("nextToken", next);
        });
    }

    private static List<String> values(Instance i, String filter, Ec2InstanceStatuses s) {
        return switch (filter) {
            case "instance-status.status" -> List.of(s.instanceCheck(i.id()).status());
            case "system-status.status" -> List.of(s.systemCheck(i.id()).status());
            case "instance-status.reachability" -> List.of(reachability(s.instanceCheck(i.id())));
            case "system-status.reachability" -> List.of(reachability(s.systemCheck(i.id())));
            case "event.code" -> s.events(i.id()).stream().map(Event::code).toList();
            case "availability-zone" -> List.of(i.zone());
            case "instance-state-name" -> List.of(i.state());
            default -> List.of();
        };
    }

    private static String reachability(Check c) {
        return c.status().equals("ok") ? "passed" : "failed";
    }

    private static void check(Xml x, String element, Check c) {
        x.open(element).leaf("status", c.status()).open("details").open("item").leaf("name", "reachability")
                .leaf("status", reachability(c)).leaf("impairedSince", c.impairedSince()).close("item")
                .close("details").close(element);
    }

    private static int code(String state) {
        return switch (state) {
            case "pending" -> 0;
            case "running" -> 16;
            case "shutting-down" -> 32;
            case "terminated" -> 48;
            case "stopping" -> 64;
            default -> 80;
        };
    }

    private static String token(int offset, String binding) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((offset + "|" + binding.hashCode())
                .getBytes(StandardCharsets.UTF_8));
    }

    private static Integer offset(String token, String binding) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8).split("\\|");
            return parts.length == 2 && parts[1].equals(String.valueOf(binding.hashCode())) ? Integer.parseInt(parts[0]) : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** EC2's token bucket: {@code capacity} tokens, refilled continuously at {@code refill} a second. */
    static final class TokenBucket {
        private final int capacity;
        private final double refill;
        private double tokens;
        private Instant last;

        TokenBucket(int capacity, double refill, Instant now) {
            this.capacity = capacity;
            this.refill = refill;
            this.tokens = capacity;
            this.last = now;
        }

        synchronized boolean take(Instant now) {
            if (now.isAfter(last)) {
                tokens = Math.min(capacity, tokens + refill * java.time.Duration.between(last, now).toNanos() / 1e9);
                last = now;
            }
            if (tokens < 1) {
                return false;
            }
            tokens -= 1;
            return true;
        }
    }
}
