package dev.gantry.core.provisioning;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A cloud that behaves like CreateFleet for tests: the claim name (or launch token) is the ClientToken (a second launch
 * returns the first instances), a launch gets its count of instances, the cheapest allowed offering of the options is
 * tried first (as many from each as its capacity allows, see {@link #limit}) and offerings set to fail are skipped (and
 * reported), and when none is left it throws {@link InsufficientCapacity}. Records every launch request and the
 * parameters it sent; a ClientToken reused with other parameters counts as EC2's mismatch.
 */
final class RecordingCloud implements CloudProvider {
    private final Clock clock;
    private final Map<String, List<CloudInstance>> byToken = new LinkedHashMap<>();
    private final Map<OfferingKey, Integer> capacity = new java.util.HashMap<>();
    private final List<LaunchRequest> requests = new ArrayList<>();
    private final Set<OfferingKey> failing = new HashSet<>();
    private final List<LaunchParameters> sent = new ArrayList<>();
    private final Map<String, LaunchParameters> sentByToken = new java.util.HashMap<>();
    private String subnets = "a";
    private boolean tagLookupLags;
    private int mismatches;
    private int next = 1;
    private int capacityLeft = Integer.MAX_VALUE;

    RecordingCloud(Clock clock) {
        this.clock = clock;
    }

    void fail(String type, String zone, String capacityType) {
        failing.add(new OfferingKey(type, zone, capacityType));
    }

    /** Only {@code n} more instances of the offering: a fleet wanting more gets what is left (partial fulfilment). */
    void limit(String type, String zone, String capacityType, int n) {
        capacity.put(new OfferingKey(type, zone, capacityType), n);
    }

    /** Only {@code n} more instances in all: EC2 out of capacity for everything this launch may use. */
    void limitTotal(int n) {
        capacityLeft = n;
    }

    List<LaunchRequest> requests() {
        return List.copyOf(requests);
    }

    /** Instances actually created (not counting idempotent repeats). */
    List<CloudInstance> instances() {
        return byToken.values().stream().flatMap(List::stream).toList();
    }

    /** From now on a prepare picks other subnets (as EC2's free addresses shift): what it sends changes. */
    void moveSubnets(String generation) {
        subnets = generation;
    }

    /** From now on the lookup by tag after a token mismatch lists nothing (DescribeInstances lags behind a launch). */
    void tagLookupLags() {
        tagLookupLags = true;
    }

    /** The parameters of every launch call, in order. */
    List<LaunchParameters> sent() {
        return List.copyOf(sent);
    }

    /** ClientTokens reused with other parameters (EC2's IdempotentParameterMismatch). */
    int mismatches() {
        return mismatches;
    }

    /** The offerings the launch would try, each in its zone's subnet of the current generation. */
    @Override
    public synchronized LaunchParameters prepare(LaunchRequest request) {
        List<Candidate> c = candidates(request);
        String capacity = c.isEmpty() ? "on-demand" : c.getFirst().offering().capacityType();
        return new LaunchParameters(capacity, List.of(new LaunchParameters.Template("lt-" + request.nodePool().name(),
                "ami-test", 0, c.stream().map(x -> new LaunchParameters.Override(x.type().name(), x.offering().zone(),
                        "subnet-" + x.offering().zone() + "-" + subnets)).toList())), Map.of());
    }

    @Override
    public synchronized LaunchResult launch(LaunchRequest request) {
        return launch(request, prepare(request));
    }

    /**
     * As CreateFleet: a ClientToken seen before returns the first instances when the parameters are the same; with
     * other parameters, the adapter's lookup by tag finds them, unless {@link #tagLookupLags}, and then it fails for
     * good (IdempotentParameterMismatch).
     */
    @Override
    public synchronized LaunchResult launch(LaunchRequest request, LaunchParameters parameters) {
        requests.add(request);
        sent.add(parameters);
        List<CloudInstance> existing = byToken.get(request.clientToken());
        if (existing != null) {
            if (!java.util.Objects.equals(parameters, sentByToken.get(request.clientToken()))) {
                mismatches++;
                if (tagLookupLags) {
                    throw new CloudException("IdempotentParameterMismatch", "CreateFleet: client token "
                            + request.clientToken() + " was used before with other parameters", false);
                }
            }
            return new LaunchResult(existing, List.of());
        }
        sentByToken.put(request.clientToken(), parameters);
        List<OfferingKey> failed = new ArrayList<>();
        List<CloudInstance> launched = new ArrayList<>();
        for (Candidate c : candidates(request)) {
            OfferingKey key = new OfferingKey(c.type().name(), c.offering().zone(), c.offering().capacityType());
            if (capacityLeft == 0) {
                break;
            }
            if (failing.contains(key) || capacity.getOrDefault(key, Integer.MAX_VALUE) == 0) {
                failed.add(key);
                continue;
            }
            while (launched.size() < request.count() && capacity.getOrDefault(key, Integer.MAX_VALUE) > 0 && capacityLeft > 0) {
                capacity.computeIfPresent(key, (k, n) -> n - 1);
                capacityLeft = capacityLeft == Integer.MAX_VALUE ? capacityLeft : capacityLeft - 1;
                launched.add(new CloudInstance(String.format("i-%017x", next++), key.instanceType(), key.zone(),
                        key.capacityType(), "pending", clock.instant(), null, Map.of(
                        request.count() == 1 ? CloudInstance.TAG_NODECLAIM : CloudInstance.TAG_LAUNCH, request.clientToken(),
                        CloudInstance.TAG_NODEPOOL, request.nodePool().name())));
            }
            if (launched.size() == request.count()) {
                break;
            }
        }
        if (launched.isEmpty()) {
            throw new InsufficientCapacity("InsufficientInstanceCapacity", failed);
        }
        byToken.put(request.clientToken(), List.copyOf(launched));
        return new LaunchResult(launched, failed);
    }

    private record Candidate(InstanceType type, Offering offering) {
    }

    /** Spot before on-demand when both are allowed (as Karpenter launches), then by price. */
    private static List<Candidate> candidates(LaunchRequest request) {
        List<Candidate> out = new ArrayList<>();
        for (InstanceType t : request.options()) {
            for (Offering o : t.offerings()) {
                boolean allowed = request.requirements().get(WellKnownLabels.ZONE).has(o.zone())
                        && request.requirements().get(WellKnownLabels.CAPACITY_TYPE).has(o.capacityType());
                if (o.available() && allowed) {
                    out.add(new Candidate(t, o));
                }
            }
        }
        out.sort(Comparator.comparing((Candidate c) -> !c.offering().capacityType().equals("spot"))
                .thenComparingDouble(c -> c.offering().pricePerHour()));
        return out;
    }

    @Override
    public void terminate(List<String> instanceIds) {
    }

    @Override
    public List<CloudInstance> listInstances() {
        return instances();
    }

    @Override
    public Optional<CloudInstance> describe(String instanceId) {
        return instances().stream().filter(i -> i.instanceId().equals(instanceId)).findFirst();
    }
}
