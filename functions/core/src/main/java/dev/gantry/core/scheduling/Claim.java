package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.HostPort;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A new NodeClaim being filled during a solve. Invariant: every type in {@link #options} is compatible with
 * {@link #requirements}, fits every pod placed so far plus its DaemonSet overhead, keeps the pool within its limits,
 * and has an allowed offering. Options stay ordered by the price of that offering.
 */
final class Claim implements Slot {
    final PoolContext pool;
    final int index;
    final String hostname;
    Requirements requirements;
    List<InstanceType> options;
    Resources requests = Resources.ZERO;
    final List<Pod> pods = new ArrayList<>();
    final List<HostPort> ports = new ArrayList<>();
    /**
     * Capacity counted against the pool's limits: component-wise the largest of the options the claim would be launched
     * with ({@link #launchOptions}, at most {@link Scheduler#MAX_INSTANCE_TYPE_OPTIONS}), as CreateFleet may pick any of
     * them. Karpenter subtracts the largest of every option; the types past the launch's cut can never be launched.
     */
    Resources reserved = Resources.ZERO;
    /** The capacity of the cheapest option, the type the claim is expected to launch (for limit reasons). */
    private Resources expected = Resources.ZERO;
    /** Component-wise the most room any option has after DaemonSets: a cheap first test for a new pod. */
    Resources maxRoom;
    /** {@link PoolContext#room} of each option, in option order; null until needed, reset when the options change. */
    private Resources[] optionRooms;
    /**
     * The options no pricier than the expected one (the cheapest option, ties included), in option order: the only
     * types a pod may bring the claim to without raising its price. Null until needed; reset when options or
     * requirements change.
     */
    List<InstanceType> atPrice;
    private final Map<String, Set<String>> domainCache = new HashMap<>();

    private Claim(PoolContext pool, int index, Requirements requirements, List<InstanceType> options) {
        this.pool = pool;
        this.index = index;
        this.hostname = "claim-" + index;
        this.requirements = requirements;
        this.options = options;
    }

    /**
     * Component-wise the least room any option has in cpu, memory, ephemeral storage and pod slots (extended resources
     * left out): a pod set within it keeps every option. Null until needed, reset with {@link #optionRooms}.
     */
    private Resources minRoom;

    Resources minRoom() {
        if (minRoom == null) {
            long cpu = Long.MAX_VALUE;
            long memory = Long.MAX_VALUE;
            long ephemeral = Long.MAX_VALUE;
            long slots = Long.MAX_VALUE;
            for (Resources r : optionRooms()) {
                cpu = Math.min(cpu, r.cpuMillis());
                memory = Math.min(memory, r.memoryBytes());
                ephemeral = Math.min(ephemeral, r.ephemeralBytes());
                slots = Math.min(slots, r.pods());
            }
            minRoom = new Resources(cpu, memory, ephemeral, slots, Map.of());
        }
        return minRoom;
    }

    /** The room of each option, in option order (computed once per options list). */
    Resources[] optionRooms() {
        if (optionRooms == null) {
            optionRooms = options == pool.types ? pool.typeRooms() : pool.rooms(options);
        }
        return optionRooms;
    }

    Resources roomOf(List<InstanceType> types) {
        Resources room = Resources.ZERO;
        for (InstanceType t : types) {
            room = room.max(pool.room(t));
        }
        return room;
    }

    /** Opens an empty claim on a pool (no pods yet); {@link #fit} decides whether the first pod goes in. */
    static Claim open(PoolContext pool, int index) {
        return new Claim(pool, index, pool.requirements, pool.types);
    }

    /** Opens an empty claim that may only become one of {@code options} (a subset of the pool's types, price-ordered). */
    static Claim open(PoolContext pool, int index, List<InstanceType> options) {
        return new Claim(pool, index, pool.requirements, options);
    }

    /** Opens an empty claim already narrowed to {@code requirements} (within the pool's), restricted to {@code options}. */
    static Claim open(PoolContext pool, int index, Requirements requirements, List<InstanceType> options) {
        return new Claim(pool, index, requirements, options);
    }

    /** The expected price if a fit is committed. */
    static double priceOf(ClaimFit fit) {
        return fit.options().get(0).cheapestOffering(fit.requirements()).pricePerHour();
    }

    /**
     * Widens the options back to every pool type that is compatible, fits what the claim holds and keeps the pool in
     * its limits, then re-orders by price: after packing against a restricted menu, the cheapest type may differ.
     */
    void rightSize() {
        List<InstanceType> kept = pool.hasLimits() ? rightSized() : pool.sharedOptions.rightSized(requirements, requests, this::rightSized);
        if (kept.isEmpty() || kept.equals(options)) {
            return; // the current options stay valid, and a list other claims share stays shared
        }
        options = kept;
        maxRoom = null;
        optionRooms = null;
        minRoom = null;
        atPrice = null;
        domainCache.clear();
        updateReserved();
    }

    private List<InstanceType> rightSized() {
        List<InstanceType> kept = new ArrayList<>();
        for (InstanceType t : pool.typesFor(requirements)) {
            if (requests.fitsIn(pool.room(t)) && pool.withinLimits(t.capacity(), reserved)) {
                kept.add(t);
            }
        }
        return kept;
    }

    @Override
    public String hostname() {
        return hostname;
    }

    @Override
    public Set<String> domains(String key) {
        return domainCache.computeIfAbsent(key, k -> {
            ValueSet own = requirements.get(k);
            String single = own.singleValue();
            if (single != null) {
                return Set.of(single);
            }
            // Options are pool types: once the values found are all the pool's types can take, the rest add nothing.
            Set<String> all = pool.typeDomains.computeIfAbsent(List.of(k, own), x -> valuesOf(pool.types, k, own, null));
            return options == pool.types ? new TreeSet<>(all) : valuesOf(options, k, own, all);
        });
    }

    /** The values of {@code key} that {@code own} allows among the types' labels, stopping once it has {@code all}. */
    private static Set<String> valuesOf(List<InstanceType> types, String key, ValueSet own, Set<String> all) {
        TreeSet<String> out = new TreeSet<>();
        for (InstanceType t : types) {
            ValueSet typeSet = t.requirements().get(key);
            if (typeSet.isFinite()) {
                for (String v : typeSet.values()) {
                    if (own.has(v)) {
                        out.add(v);
                    }
                }
            } else if (own.isFinite()) {
                out.addAll(own.values());
            }
            if (all != null && out.size() == all.size() && out.containsAll(all)) {
                break;
            }
        }
        return out;
    }

    @Override
    public List<Taint> taints() {
        return pool.taints;
    }

    @Override
    public boolean couldMatch(Requirements term) {
        return PoolContext.couldMatch(requirements, term);
    }

    /**
     * Whether the pod (at this relaxation level, with these topology pins) can join, and what the claim becomes.
     * Pure: nothing changes until {@link #commit}.
     */
    ClaimFit fit(PodConstraints c, Map<String, String> pins) {
        return fit(c, pins, Packer.Upsize.ALLOWED);
    }

    /**
     * {@link #fit(PodConstraints, Map)}, told whether the caller will refuse a fit that raises the claim's price (see
     * {@link ClaimFitting#fit}).
     */
    ClaimFit fit(PodConstraints c, Map<String, String> pins, Packer.Upsize upsize) {
        return ClaimFitting.fit(this, c, pins, upsize);
    }

    /** Applies a successful fit for the pod. */
    void commit(Pod pod, ClaimFit fit) {
        if (!fit.requirements().equals(requirements)) {
            domainCache.clear();
            atPrice = null;
        } else if (fit.options().size() != options.size()) {
            domainCache.clear();
        }
        requirements = fit.requirements();
        boolean optionsChanged = fit.options() != options;
        if (optionsChanged) {
            maxRoom = fit.maxRoom(); // the options' most room, as roomOf would give it
            optionRooms = fit.rooms(); // null when the fit re-ordered them
            minRoom = null;
            atPrice = null;
        }
        options = fit.options();
        requests = requests.plus(pod.requests());
        pods.add(pod);
        ports.addAll(pod.hostPorts());
        if (optionsChanged || pods.size() == 1) {
            updateReserved(); // the first pod makes the claim count against its pool's limits
        }
    }

    private void updateReserved() {
        if (!pool.hasLimits()) {
            return; // reserved capacity only matters against limits
        }
        Resources newReserved = Resources.ZERO;
        for (InstanceType t : options.size() <= Scheduler.MAX_INSTANCE_TYPE_OPTIONS ? options
                : launchOptions(Scheduler.MAX_INSTANCE_TYPE_OPTIONS)) {
            newReserved = newReserved.max(t.capacity());
        }
        Resources newExpected = options.get(0).capacity();
        pool.committed = pool.committed.minus(reserved).plus(newReserved);
        pool.expectedNew = pool.expectedNew.minus(expected).plus(newExpected);
        reserved = newReserved;
        expected = newExpected;
    }

    /** Gives back what the claim counted against its pool's limits and nodes, as it is dropped from the plan. */
    void release() {
        pool.committed = pool.committed.minus(reserved);
        pool.expectedNew = pool.expectedNew.minus(expected);
        reserved = Resources.ZERO;
        expected = Resources.ZERO;
        pool.nodes--;
    }

    /**
     * Near a limit: keeps only the options no larger than the cheapest one in any limited resource (the same size in
     * other families, or smaller), so the claim counts against the limits what it is expected to launch rather than the
     * largest type it could. Options still fit every pod placed and keep the requirements' minValues. Returns whether
     * the reservation shrank.
     */
    boolean tighten() {
        if (!pool.hasLimits() || pods.isEmpty() || options.size() <= 1) {
            return false;
        }
        Resources expected = options.get(0).capacity();
        List<InstanceType> kept = new ArrayList<>();
        for (InstanceType t : options) {
            if (pool.noLargerInLimits(t.capacity(), expected)) {
                kept.add(t);
            }
        }
        if (kept.size() == options.size()
                || MinValues.any(requirements) && MinValues.truncate(kept, requirements, Scheduler.MAX_INSTANCE_TYPE_OPTIONS) == null) {
            return false;
        }
        Resources before = reserved;
        options = List.copyOf(kept);
        maxRoom = null;
        optionRooms = null;
        minRoom = null;
        atPrice = null;
        domainCache.clear();
        updateReserved();
        return !reserved.equals(before);
    }

    /**
     * The instance types to offer at launch: at most {@code max}, the cheapest first, with pricier types swapped in only
     * where a requirement's minValues needs more distinct values than the cheapest {@code max} types carry.
     */
    List<InstanceType> launchOptions(int max) {
        List<InstanceType> out = MinValues.truncate(options, requirements, max);
        return out != null ? out : options.subList(0, Math.min(max, options.size()));
    }

    /** What the claim counts against its pool's limits at the type it is expected to launch. */
    Resources expected() {
        return expected;
    }

    /** The type expected to launch: the cheapest option. */
    InstanceType cheapest() {
        return options.get(0);
    }

    Offering offering() {
        return cheapest().cheapestOffering(requirements);
    }

    double price() {
        return offering().pricePerHour();
    }

    static void sortByPrice(List<InstanceType> types, Requirements reqs) {
        Map<InstanceType, Double> price = new java.util.IdentityHashMap<>();
        for (InstanceType t : types) {
            Offering o = t.cheapestOffering(reqs);
            price.put(t, o == null ? Double.MAX_VALUE : o.pricePerHour());
        }
        types.sort(Comparator.comparingDouble((InstanceType t) -> price.get(t)).thenComparing(InstanceType::name));
    }
}
