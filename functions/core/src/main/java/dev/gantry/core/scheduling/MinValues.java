package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Karpenter's {@code minValues}: a claim's instance-type options must carry at least N distinct values of a key
 * (N instance types, N families, ...), even after they are cut down to the few that CreateFleet is offered, so that
 * a launch keeps enough alternatives when capacity is short.
 */
public final class MinValues {
    private MinValues() {
    }

    /**
     * How many of the price-ordered {@code types}, from the first, it takes to satisfy every minValues of {@code reqs}
     * (Karpenter's {@code SatisfiesMinValues}): 0 when {@code reqs} has none, -1 when all of them together fall short.
     */
    public static int needed(List<InstanceType> types, Requirements reqs) {
        Map<String, Integer> mins = mins(reqs);
        if (mins.isEmpty()) {
            return 0;
        }
        Map<String, Set<String>> seen = new HashMap<>();
        mins.keySet().forEach(k -> seen.put(k, new TreeSet<>()));
        for (int i = 0; i < types.size(); i++) {
            InstanceType t = types.get(i);
            mins.keySet().forEach(k -> seen.get(k).addAll(values(t, k, reqs)));
            if (satisfied(mins, seen)) {
                return i + 1;
            }
        }
        return -1;
    }

    /** The keys whose minValues {@code types} fall short of, for a message. */
    public static List<String> unmet(List<InstanceType> types, Requirements reqs) {
        List<String> out = new ArrayList<>();
        for (var e : mins(reqs).entrySet()) {
            Set<String> all = new TreeSet<>();
            types.forEach(t -> all.addAll(values(t, e.getKey(), reqs)));
            if (all.size() < e.getValue()) {
                out.add(e.getKey() + " (" + all.size() + " of " + e.getValue() + ")");
            }
        }
        return out;
    }

    /** Whether any key of {@code reqs} carries a minValues. */
    static boolean any(Requirements reqs) {
        for (ValueSet v : reqs.asMap().values()) {
            if (v.minValues() != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * At most {@code max} of the price-ordered {@code types} that still satisfy every minValues of {@code reqs}: the
     * cheapest type that adds a missing value of some key is taken first, then the cheapest others fill up to
     * {@code max}. Price order is kept. Null when no such selection exists.
     */
    static List<InstanceType> truncate(List<InstanceType> types, Requirements reqs, int max) {
        Map<String, Integer> mins = mins(reqs);
        if (mins.isEmpty()) {
            return types.size() <= max ? types : types.subList(0, max);
        }
        Map<String, Set<String>> seen = new HashMap<>();
        mins.keySet().forEach(k -> seen.put(k, new TreeSet<>()));
        Set<InstanceType> picked = Collections.newSetFromMap(new IdentityHashMap<>());
        for (InstanceType t : types) {
            if (satisfied(mins, seen)) {
                break;
            }
            boolean adds = false;
            for (var e : mins.entrySet()) {
                Set<String> have = seen.get(e.getKey());
                if (have.size() < e.getValue() && !have.containsAll(values(t, e.getKey(), reqs))) {
                    adds = true;
                }
            }
            if (adds) {
                picked.add(t);
                mins.keySet().forEach(k -> seen.get(k).addAll(values(t, k, reqs)));
            }
        }
        if (!satisfied(mins, seen) || picked.size() > max) {
            return null;
        }
        List<InstanceType> out = new ArrayList<>(Math.min(max, types.size()));
        int extra = max - picked.size();
        for (InstanceType t : types) {
            if (picked.contains(t)) {
                out.add(t);
            } else if (extra > 0) {
                out.add(t);
                extra--;
            }
        }
        return out;
    }

    /** Why {@code types} cannot satisfy the minValues of {@code reqs}, for an unschedulable pod. */
    static String shortfall(String pool, List<InstanceType> types, Requirements reqs, int max) {
        for (var e : mins(reqs).entrySet()) {
            Set<String> all = new TreeSet<>();
            for (InstanceType t : types) {
                all.addAll(values(t, e.getKey(), reqs));
            }
            if (all.size() < e.getValue()) {
                return "NodePool " + pool + " requires minValues " + e.getValue() + " for " + e.getKey() + "; the instance types that fit offer only "
                        + all.size();
            }
        }
        return "NodePool " + pool + " requires minValues " + mins(reqs) + " that " + max + " instance types cannot cover";
    }

    private static Map<String, Integer> mins(Requirements reqs) {
        Map<String, Integer> out = new LinkedHashMap<>();
        reqs.asMap().forEach((k, v) -> {
            if (v.minValues() != null) {
                out.put(k, v.minValues());
            }
        });
        return out;
    }

    private static boolean satisfied(Map<String, Integer> mins, Map<String, Set<String>> seen) {
        for (var e : mins.entrySet()) {
            if (seen.get(e.getKey()).size() < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** The values of {@code key} a type brings that the requirements allow (one label, or several zones). */
    private static Set<String> values(InstanceType t, String key, Requirements reqs) {
        ValueSet own = t.requirements().get(key);
        if (!own.isFinite()) {
            return Set.of();
        }
        ValueSet allowed = reqs.get(key);
        Set<String> out = new TreeSet<>();
        for (String v : own.values()) {
            if (allowed.has(v)) {
                out.add(v);
            }
        }
        return out;
    }
}
