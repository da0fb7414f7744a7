package dev.gantry.core.requirements;

import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.quicktheories.QuickTheory;
import org.quicktheories.api.AsString;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Configuration;
import org.quicktheories.core.Gen;
import org.quicktheories.core.Reporter;
import org.quicktheories.generators.Generate;

/**
 * Generators for the requirement algebra. Values come from a small alphabet of words and small integers so that
 * independently generated requirements collide often (the interesting intersections are the non-trivial ones).
 * All of them shrink: QuickTheories shrinks the random draws they are built from. The public ones are shared with the
 * other property tests of the core.
 */
public final class Generators {
    /** Words and canonical small integers; bounds are drawn from the same integer range. */
    static final List<String> ALPHABET = List.of("a", "b", "c", "-1", "0", "1", "2", "3", "5", "8", "10");
    /** Keys, including an alias spelling that {@link Requirements#of} folds onto {@code kubernetes.io/arch}. */
    static final List<String> KEYS = List.of("k1", "k2", "kubernetes.io/arch", "beta.kubernetes.io/arch");
    /** The keys after normalization, as node labels are written. */
    static final List<String> LABEL_KEYS = List.of("k1", "k2", "kubernetes.io/arch");

    /** Every value a generated set can distinguish, plus one it never names, plus absence (null). */
    static final List<String> PROBES;

    private static final long SEED = 0x6761_6e74_7279L;

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

    /**
     * {@code examples} tries from a fixed seed; {@code -DQT_SEED=<seed>} runs another. A failure reports the shrunk
     * counterexample, the assertion it broke and the seed, without QuickTheories' copy of the assertion's stack trace.
     */
    public static QuickTheory theory(int examples) {
        return QuickTheory.qt().withExamples(examples).withFixedSeed(Long.getLong(Configuration.SEED, SEED))
                .withReporter(new ShortReporter());
    }

    private static final class ShortReporter implements Reporter {
        @Override
        public void falisification(long seed, int count, Object smallest, Throwable cause, List<Object> examples, AsString<Object> show) {
            throw new AssertionError(report(seed, count, smallest, examples, show) + "%nbecause: %s".formatted(cause), cause);
        }

        @Override
        public void falisification(long seed, int count, Object smallest, List<Object> examples, AsString<Object> show) {
            throw new AssertionError(report(seed, count, smallest, examples, show));
        }

        @Override
        public void valuesExhausted(int completedExamples) {
            throw new IllegalStateException("gave up after " + completedExamples + " example(s) met the assumptions");
        }

        private static String report(long seed, int count, Object smallest, List<Object> examples, AsString<Object> show) {
            return "falsified after %d example(s) (rerun with -D%s=%d)%nsmallest counterexample: %s%n(shrunk in %d step(s))"
                    .formatted(count, Configuration.SEED, seed, show.asString(smallest), examples.size() - 1);
        }
    }

    static Gen<Requirement> requirement(Gen<String> keys) {
        return keys.zip(Generate.enumValues(Operator.class), words(), bound(), orNull(70, biasedInts(1, 2)),
                (key, op, words, bound, min) -> switch (op) {
                    case In, NotIn -> new Requirement(key, op, words, min == null || min > words.size() ? null : min);
                    case Exists, DoesNotExist -> new Requirement(key, op, List.of(), null);
                    default -> new Requirement(key, op, List.of(Integer.toString(bound)), null);
                });
    }

    static Gen<Requirement> requirement() {
        return requirement(Generate.constant("k"));
    }

    static Gen<List<String>> words() {
        return distinct(ALPHABET, 1, 3);
    }

    static Gen<Integer> bound() {
        return biasedInts(-2, 11);
    }

    /** A set built from one to three requirements on one key (12 in 13), or {@link ValueSet#ANY}. */
    static Gen<ValueSet> valueSet() {
        Gen<ValueSet> built = lists().of(requirement()).ofSizeBetween(1, 3)
                .map(rs -> rs.stream().map(ValueSet::of).reduce(ValueSet::intersect).orElseThrow());
        return Generate.frequency(Pair.of(12, built), Pair.of(1, Generate.constant(ValueSet.ANY))).describedAs(Generators::show);
    }

    static Gen<Requirements> requirements() {
        return lists().of(requirement(Generate.pick(KEYS))).ofSizeBetween(0, 4).map(rs -> Requirements.of(rs));
    }

    /** Retries until one is satisfiable, at most {@link QuickTheory#withGenerateAttempts} rejects per example. */
    static Gen<Requirements> satisfiableRequirements() {
        return requirements().assuming(r -> !r.isUnsatisfiable());
    }

    /** Node labels over the normalized keys; a key may be missing. */
    static Gen<Map<String, String>> labels() {
        Gen<String> value = Generate.pick(PROBES);
        return value.zip(value, value, (a, b, c) -> {
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

    /**
     * Longs in {@code [min, max]}, most of them near the one closest to 0 (the shrink target). The distance from it falls
     * in one of a few bands on either side, each a third as wide as the next one out and the innermost at most 20 wide;
     * every band is equally likely and values are uniform within one, so a range up to 20 wide is simply uniform. One
     * draw in 20 is an edge instead: a bound, its neighbour, or the target.
     */
    public static Gen<Long> biased(long min, long max) {
        long target = Math.max(min, Math.min(max, 0));
        List<long[]> above = new ArrayList<>();
        List<long[]> below = new ArrayList<>();
        if (max != target) {
            List<Long> e = bandEdges(max - target);
            above.add(new long[] {target, target + e.getLast()});
            for (int i = e.size() - 2; i >= 0; i--) {
                above.add(new long[] {target + e.get(i + 1) + 1, target + e.get(i)});
            }
        }
        if (min != target) {
            List<Long> e = bandEdges(target - min);
            below.add(new long[] {target - e.getLast(), target});
            for (int i = e.size() - 2; i >= 0; i--) {
                below.add(new long[] {target - e.get(i), target - e.get(i + 1) - 1});
            }
        }
        List<long[]> bands = new ArrayList<>(); // innermost first, so the band index shrinks towards the target
        for (int i = 0; i < Math.max(above.size(), below.size()); i++) {
            if (i < above.size()) bands.add(above.get(i));
            if (i < below.size()) bands.add(below.get(i));
        }
        if (bands.isEmpty()) {
            bands.add(new long[] {target, target});
        }
        Gen<Integer> band = Generate.range(0, bands.size() - 1);
        Gen<Long> banded = in -> {
            long[] b = bands.get(band.generate(in));
            return Generate.longRange(b[0], b[1], target).generate(in);
        };
        List<Long> edges = java.util.stream.LongStream.of(target, min, max, min + (min < max ? 1 : 0), max - (min < max ? 1 : 0))
                .distinct().boxed().toList();
        return Generate.frequency(Pair.of(19, banded), Pair.of(1, Generate.pick(edges)));
    }

    /** {@link #biased(long, long)} for ints. */
    public static Gen<Integer> biasedInts(int min, int max) {
        return biased((long) min, (long) max).map(Long::intValue);
    }

    /** Outer edge first, each a third of the one before, down to one at most 20; distances are unsigned (they may exceed Long.MAX_VALUE). */
    private static List<Long> bandEdges(long distance) {
        List<Long> edges = new ArrayList<>();
        for (long d = distance; ; d = Long.divideUnsigned(d, 3)) {
            edges.add(d);
            if (Long.compareUnsigned(d, 20) <= 0) {
                return edges;
            }
        }
    }

    /** {@code null} in {@code percentNull} of 100 draws, else a value of {@code gen}; shrinks towards null. */
    public static <T> Gen<T> orNull(int percentNull, Gen<T> gen) {
        return integers().between(0, 99).zip(gen, (roll, t) -> roll < percentNull ? null : t);
    }

    /**
     * Lists of {@code minSize..maxSize} distinct elements of {@code from}, every size and every ordered choice
     * equally likely (each pick takes one of the elements not yet taken); shrinks towards shorter lists of earlier elements.
     */
    public static <T> Gen<List<T>> distinct(List<T> from, int minSize, int maxSize) {
        Gen<Integer> sizes = integers().between(minSize, maxSize);
        return in -> {
            List<T> left = new ArrayList<>(from);
            List<T> out = new ArrayList<>();
            for (int n = sizes.generate(in); n > 0; n--) {
                out.add(left.remove((int) Generate.range(0, left.size() - 1).generate(in)));
            }
            return out;
        };
    }

    /** A set as Kubernetes people read it, plus what {@link ValueSet#describe} leaves implicit. */
    static String show(ValueSet s) {
        String d = s.describe();
        boolean absenceImplied = d.equals("any") || d.equals("DoesNotExist");
        return d + (s.absentAllowed() && !absenceImplied ? " or absent" : "")
                + (s.minValues() == null ? "" : " minValues " + s.minValues());
    }
}
