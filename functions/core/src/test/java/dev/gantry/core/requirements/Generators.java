package dev.gantry.core.requirements;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Generators for the requirement algebra. Values come from a small alphabet of words and small integers so that
 * independently generated requirements collide often (the interesting intersections are the non-trivial ones).
 */
final class Generators {
    /** Words and canonical small integers; bounds are drawn from the same integer range. */
    static final List<String> ALPHABET = List.of("a", "b", "c", "-1", "0", "1", "2", "3", "5", "8", "10");
    /** Keys, including an alias spelling that {@link Requirements#of} folds onto {@code kubernetes.io/arch}. */
    static final List<String> KEYS = List.of("k1", "k2", "kubernetes.io/arch", "beta.kubernetes.io/arch");
    /** The keys after normalization, as node labels are written. */
    static final List<String> LABEL_KEYS = List.of("k1", "k2", "kubernetes.io/arch");

    /** Every value a generated set can distinguish, plus one it never names, plus absence (null). */
    static final List<String> PROBES;

    static {
        List<String> p = new ArrayList<>(ALPHABET);
        for (int i = -5; i <= 15; i++) {
            if (!p.contains(Integer.toString(i))) {
                p.add(Integer.toString(i));
            }
        }
        p.add("unlisted");
        p.add(null);
        PROBES = java.util.Collections.unmodifiableList(p);
    }

    private Generators() {
    }

    static Arbitrary<Requirement> requirement(Arbitrary<String> keys) {
        Arbitrary<Operator> ops = Arbitraries.of(Operator.class);
        return Combinators.combine(keys, ops, words(), bound(), Arbitraries.integers().between(1, 2).injectNull(0.7))
                .as((key, op, words, bound, min) -> switch (op) {
                    case In, NotIn -> new Requirement(key, op, words, min == null || min > words.size() ? null : min);
                    case Exists, DoesNotExist -> new Requirement(key, op, List.of(), null);
                    default -> new Requirement(key, op, List.of(Integer.toString(bound)), null);
                });
    }

    static Arbitrary<Requirement> requirement() {
        return requirement(Arbitraries.just("k"));
    }

    static Arbitrary<List<String>> words() {
        return Arbitraries.of(ALPHABET).list().uniqueElements().ofMinSize(1).ofMaxSize(3);
    }

    static Arbitrary<Integer> bound() {
        return Arbitraries.integers().between(-2, 11);
    }

    /** A set built from one to three requirements on one key, or {@link ValueSet#ANY}. */
    static Arbitrary<ValueSet> valueSet() {
        Arbitrary<ValueSet> built = requirement().list().ofMinSize(1).ofMaxSize(3)
                .map(rs -> rs.stream().map(ValueSet::of).reduce(ValueSet::intersect).orElseThrow());
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(12, built),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(ValueSet.ANY)));
    }

    static Arbitrary<Requirements> requirements() {
        return requirement(Arbitraries.of(KEYS)).list().ofMinSize(0).ofMaxSize(4).map(Requirements::of);
    }

    static Arbitrary<Requirements> satisfiableRequirements() {
        return requirements().filter(r -> !r.isUnsatisfiable());
    }

    /** Node labels over the normalized keys; a key may be missing. */
    static Arbitrary<Map<String, String>> labels() {
        Arbitrary<String> value = Arbitraries.of(PROBES);
        return Combinators.combine(value, value, value).as((a, b, c) -> {
            Map<String, String> m = new TreeMap<>();
            String[] vs = {a, b, c};
            for (int i = 0; i < LABEL_KEYS.size(); i++) {
                if (vs[i] != null) {
                    m.put(LABEL_KEYS.get(i), vs[i]);
                }
            }
            return m;
        });
    }
}
