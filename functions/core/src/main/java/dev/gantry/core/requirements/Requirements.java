package dev.gantry.core.requirements;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A conjunction of per-key {@link ValueSet}s: what a NodePool allows, what a pod's node affinity term requires,
 * or the labels of an instance type. Keys are normalized through {@link WellKnownLabels#normalize(String)}.
 * A key that is absent is unconstrained. Immutable.
 */
public final class Requirements {
    public static final Requirements NONE = new Requirements(Map.of());

    /** In key order. */
    private final Map<String, ValueSet> byKey;
    /** Cached: requirement sets key the scheduler's per-solve and per-offer caches. */
    private int hash;

    private Requirements(Map<String, ValueSet> sorted) {
        this.byKey = sorted.isEmpty() ? Map.of() : Collections.unmodifiableMap(sorted);
    }

    /** The conjunction of the given requirements; several on one key intersect. */
    public static Requirements of(Collection<Requirement> requirements) {
        TreeMap<String, ValueSet> m = new TreeMap<>();
        for (Requirement r : requirements) {
            m.merge(WellKnownLabels.normalize(r.key()), ValueSet.of(r), ValueSet::intersect);
        }
        return new Requirements(m);
    }

    public static Requirements of(Requirement... requirements) {
        return of(List.of(requirements));
    }

    /** Requirements that pin each label to its one value, as a concrete node or instance type has them. */
    public static Requirements fromLabels(Map<String, String> labels) {
        TreeMap<String, ValueSet> m = new TreeMap<>();
        labels.forEach((k, v) -> m.put(WellKnownLabels.normalize(k), ValueSet.in(v)));
        return new Requirements(m);
    }

    /** Builds from already-normalized sets. */
    public static Requirements ofSets(Map<String, ValueSet> sets) {
        return new Requirements(new TreeMap<>(sets));
    }

    /** The set for a key; {@link ValueSet#ANY} when the key is unconstrained. */
    public ValueSet get(String key) {
        ValueSet v = byKey.get(key); // keys are stored normalized, so a hit is the answer without normalizing
        return v != null ? v : byKey.getOrDefault(WellKnownLabels.normalize(key), ValueSet.ANY);
    }

    public boolean has(String key) {
        return byKey.containsKey(WellKnownLabels.normalize(key));
    }

    public Set<String> keys() {
        return byKey.keySet();
    }

    public Map<String, ValueSet> asMap() {
        return byKey;
    }

    public boolean isEmpty() {
        return byKey.isEmpty();
    }

    /** The conjunction of both. Keys on one side only keep their set. */
    public Requirements intersect(Requirements other) {
        if (other.byKey.isEmpty()) {
            return this;
        }
        if (byKey.isEmpty()) {
            return other;
        }
        TreeMap<String, ValueSet> m = new TreeMap<>(byKey);
        other.byKey.forEach((k, v) -> m.merge(k, v, ValueSet::intersect));
        return new Requirements(m);
    }

    /** Adds or narrows one key. */
    public Requirements with(String key, ValueSet set) {
        TreeMap<String, ValueSet> m = new TreeMap<>(byKey);
        m.merge(WellKnownLabels.normalize(key), set, ValueSet::intersect);
        return new Requirements(m);
    }

    /** Whether some key has an empty set, so that nothing can satisfy these requirements. */
    public boolean isUnsatisfiable() {
        return firstEmptyKey() != null;
    }

    public String firstEmptyKey() {
        for (var e : byKey.entrySet()) {
            if (e.getValue().isEmpty()) {
                return e.getKey();
            }
        }
        return null;
    }

    /**
     * The first key on which the two requirement sets cannot both hold, or null when they are compatible.
     * Keys constrained on one side only never conflict.
     */
    public String conflict(Requirements other) {
        Map<String, ValueSet> small = byKey.size() <= other.byKey.size() ? byKey : other.byKey;
        Map<String, ValueSet> large = small == byKey ? other.byKey : byKey;
        for (var e : small.entrySet()) {
            ValueSet o = large.get(e.getKey());
            if (o != null && !e.getValue().intersects(o)) {
                return e.getKey();
            }
        }
        return null;
    }

    public boolean compatible(Requirements other) {
        return conflict(other) == null;
    }

    /** Whether a node with exactly these labels satisfies every requirement (absent labels count as absent). */
    public boolean matches(Map<String, String> labels) {
        for (var e : byKey.entrySet()) {
            if (!e.getValue().has(labels.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** The first key whose requirement a node with these labels fails, or null. */
    public String firstUnmatched(Map<String, String> labels) {
        for (var e : byKey.entrySet()) {
            if (!e.getValue().has(labels.get(e.getKey()))) {
                return e.getKey();
            }
        }
        return null;
    }

    /** The labels these requirements pin to one value (the labels a node launched under them carries). */
    public Map<String, String> singleValuedLabels() {
        TreeMap<String, String> m = new TreeMap<>();
        byKey.forEach((k, v) -> {
            String s = v.singleValue();
            if (s != null) {
                m.put(k, s);
            }
        });
        return m;
    }

    /** The requirements in written form, one or more per key, keys sorted. */
    public List<Requirement> toList() {
        List<Requirement> out = new java.util.ArrayList<>();
        byKey.forEach((k, v) -> out.addAll(v.toRequirements(k)));
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Requirements r && byKey.equals(r.byKey);
    }

    @Override
    public int hashCode() {
        int h = hash; // racy but benign: every thread computes the same value
        if (h == 0) {
            hash = h = byKey.hashCode();
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        byKey.forEach((k, v) -> b.append(b.length() > 1 ? ", " : "").append(k).append(' ').append(v.describe()));
        return b.append('}').toString();
    }
}
