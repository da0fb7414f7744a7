package dev.gantry.core.requirements;

import static dev.gantry.core.requirements.Generators.theory;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** Algebraic laws of {@link ValueSet}: a meet-semilattice whose membership agrees with Kubernetes' matching. */
class ValueSetPropertiesTest {
    private static final Gen<ValueSet> SETS = Generators.valueSet();
    private static final Gen<Integer> SMALL_INTS = Generators.biasedInts(-3, 12);

    @Test
    void intersectionIsCommutative() {
        theory(500).forAll(SETS, SETS).checkAssert((a, b) -> assertThat(a.intersect(b)).isEqualTo(b.intersect(a)));
    }

    @Test
    void intersectionIsAssociative() {
        theory(500).forAll(SETS, SETS, SETS)
                .checkAssert((a, b, c) -> assertThat(a.intersect(b).intersect(c)).isEqualTo(a.intersect(b.intersect(c))));
    }

    @Test
    void intersectionIsIdempotent() {
        theory(300).forAll(SETS).checkAssert(a -> assertThat(a.intersect(a)).isEqualTo(a));
    }

    @Test
    void anyIsTheIdentity() {
        theory(300).forAll(SETS).checkAssert(a -> {
            assertThat(a.intersect(ValueSet.ANY)).isEqualTo(a);
            assertThat(ValueSet.ANY.intersect(a)).isEqualTo(a);
        });
    }

    @Test
    void aValueIsInTheIntersectionExactlyWhenItIsInBothSides() {
        theory(500).forAll(SETS, SETS).checkAssert((a, b) -> {
            ValueSet both = a.intersect(b);
            for (String v : Generators.PROBES) {
                assertThat(both.has(v)).as("has(%s) on %s ∩ %s", v, a.describe(), b.describe()).isEqualTo(a.has(v) && b.has(v));
            }
        });
    }

    @Test
    void aSetIsEmptyExactlyWhenNoValueAndNotAbsenceSatisfiesIt() {
        theory(500).forAll(SETS, SETS).checkAssert((a, b) -> {
            ValueSet s = a.intersect(b);
            boolean someProbeAdmitted = Generators.PROBES.stream().anyMatch(s::has);
            assertThat(s.isEmpty()).as("%s", s.describe()).isEqualTo(!someProbeAdmitted);
        });
    }

    @Test
    void intersectsExactlyWhenTheIntersectionIsNotEmpty() {
        theory(2000).forAll(SETS, SETS).checkAssert((a, b) ->
                assertThat(a.intersects(b)).as("%s ∩ %s", a.describe(), b.describe()).isEqualTo(!a.intersect(b).isEmpty()));
    }

    @Test
    void intersectsDecidesBoundedComplementsExactly() {
        // Written as the record allows, not normalized: Gt 1, Lt 5 excluding 2 and 3 admits 4 alone, which b excludes.
        ValueSet a = new ValueSet(true, new TreeSet<>(List.of("2", "3")), 1L, 5L, false, null);
        ValueSet b = new ValueSet(true, new TreeSet<>(List.of("4")), 0L, 10L, false, null);
        ValueSet c = new ValueSet(true, new TreeSet<>(List.of("2")), 0L, 6L, false, null);
        ValueSet above = new ValueSet(true, new TreeSet<>(), Long.MAX_VALUE, null, false, null);
        ValueSet wide = new ValueSet(true, new TreeSet<>(List.of("7")), Long.MIN_VALUE / 2 - 1, Long.MAX_VALUE / 2 + 1, false, null);
        ValueSet notIn = new ValueSet(true, new TreeSet<>(List.of("a")), null, null, true, null);
        for (ValueSet[] pair : new ValueSet[][]{{a, b}, {a, c}, {a, above}, {wide, a}, {wide, above}, {notIn, above}, {notIn, a}}) {
            assertThat(pair[0].intersects(pair[1])).as("%s ∩ %s", pair[0].describe(), pair[1].describe())
                    .isEqualTo(!pair[0].intersect(pair[1]).isEmpty());
            assertThat(pair[1].intersects(pair[0])).isEqualTo(pair[0].intersects(pair[1]));
        }
        assertThat(a.intersects(b)).isFalse();
        assertThat(a.intersects(c)).isTrue(); // 4
    }

    @Test
    void intersectionKeepsTheLargerMinValues() {
        theory(300).forAll(SETS, SETS).checkAssert((a, b) -> {
            Integer expected = a.minValues() == null ? b.minValues()
                    : b.minValues() == null ? a.minValues() : Integer.valueOf(Math.max(a.minValues(), b.minValues()));
            assertThat(a.intersect(b).minValues()).isEqualTo(expected);
        });
    }

    @Test
    void writtenRequirementsDescribeTheSameSet() {
        theory(300).forAll(SETS, SETS).checkAssert((a, b) -> {
            ValueSet s = a.intersect(b);
            List<Requirement> written = s.toRequirements("k");
            // Well formed apart from minValues, which may legitimately exceed what an intersection left.
            written.forEach(r -> assertThat(new Requirement(r.key(), r.operator(), r.values(), null).validate()).as("%s", r).isNull());
            ValueSet reread = Requirements.of(written).get("k");
            for (String v : Generators.PROBES) {
                assertThat(reread.has(v)).as("has(%s) on %s written as %s", v, s.describe(), written).isEqualTo(s.has(v));
            }
        });
    }

    @Test
    void gtIsGteOfTheNextInteger() {
        theory(500).forAll(Generators.biased(Long.MIN_VALUE, Long.MAX_VALUE - 1)).checkAssert(n -> {
            ValueSet gt = ValueSet.of(Requirement.of("k", Operator.Gt, Long.toString(n)));
            ValueSet gte = ValueSet.of(Requirement.of("k", Operator.Gte, Long.toString(n + 1)));
            assertThat(gt).isEqualTo(gte);
            assertSameMembershipAround(gt, gte, n);
        });
    }

    @Test
    void ltIsLteOfThePreviousInteger() {
        theory(500).forAll(Generators.biased(Long.MIN_VALUE + 1, Long.MAX_VALUE)).checkAssert(n -> {
            ValueSet lt = ValueSet.of(Requirement.of("k", Operator.Lt, Long.toString(n)));
            ValueSet lte = ValueSet.of(Requirement.of("k", Operator.Lte, Long.toString(n - 1)));
            assertThat(lt).isEqualTo(lte);
            assertSameMembershipAround(lt, lte, n);
        });
    }

    @Test
    void boundedSetsAgreeWithTheirGteAndLteFormsUnderIntersection() {
        theory(300).forAll(SMALL_INTS, SMALL_INTS, SETS).checkAssert((lo, hi, other) -> {
            ValueSet strict = ValueSet.of(Requirement.of("k", Operator.Gt, Integer.toString(lo)))
                    .intersect(ValueSet.of(Requirement.of("k", Operator.Lt, Integer.toString(hi))));
            ValueSet inclusive = ValueSet.of(Requirement.of("k", Operator.Gte, Integer.toString(lo + 1)))
                    .intersect(ValueSet.of(Requirement.of("k", Operator.Lte, Integer.toString(hi - 1))));
            assertThat(strict.intersect(other)).isEqualTo(inclusive.intersect(other));
            for (String v : Generators.PROBES) {
                assertThat(strict.has(v)).isEqualTo(inclusive.has(v));
            }
        });
    }

    private static void assertSameMembershipAround(ValueSet a, ValueSet b, long n) {
        for (long d = -2; d <= 2; d++) {
            long probe = n + d;
            if ((d < 0 && probe > n) || (d > 0 && probe < n)) {
                continue; // wrapped around the long range
            }
            String v = Long.toString(probe);
            assertThat(a.has(v)).as("has(%s)", v).isEqualTo(b.has(v));
        }
        assertThat(a.has(null)).isFalse();
        assertThat(b.has("x")).isFalse();
    }
}
