package dev.gantry.core.requirements;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;

/** Algebraic laws of {@link ValueSet}: a meet-semilattice whose membership agrees with Kubernetes' matching. */
class ValueSetPropertiesTest {

    @Provide
    Arbitrary<ValueSet> sets() {
        return Generators.valueSet();
    }

    @Property(tries = 500)
    void intersectionIsCommutative(@ForAll("sets") ValueSet a, @ForAll("sets") ValueSet b) {
        assertThat(a.intersect(b)).isEqualTo(b.intersect(a));
    }

    @Property(tries = 500)
    void intersectionIsAssociative(@ForAll("sets") ValueSet a, @ForAll("sets") ValueSet b, @ForAll("sets") ValueSet c) {
        assertThat(a.intersect(b).intersect(c)).isEqualTo(a.intersect(b.intersect(c)));
    }

    @Property(tries = 300)
    void intersectionIsIdempotent(@ForAll("sets") ValueSet a) {
        assertThat(a.intersect(a)).isEqualTo(a);
    }

    @Property(tries = 300)
    void anyIsTheIdentity(@ForAll("sets") ValueSet a) {
        assertThat(a.intersect(ValueSet.ANY)).isEqualTo(a);
        assertThat(ValueSet.ANY.intersect(a)).isEqualTo(a);
    }

    @Property(tries = 500)
    void aValueIsInTheIntersectionExactlyWhenItIsInBothSides(@ForAll("sets") ValueSet a, @ForAll("sets") ValueSet b) {
        ValueSet both = a.intersect(b);
        for (String v : Generators.PROBES) {
            assertThat(both.has(v)).as("has(%s) on %s ∩ %s", v, a.describe(), b.describe()).isEqualTo(a.has(v) && b.has(v));
        }
    }

    @Property(tries = 500)
    void aSetIsEmptyExactlyWhenNoValueAndNotAbsenceSatisfiesIt(@ForAll("sets") ValueSet a, @ForAll("sets") ValueSet b) {
        ValueSet s = a.intersect(b);
        boolean someProbeAdmitted = Generators.PROBES.stream().anyMatch(s::has);
        assertThat(s.isEmpty()).as("%s", s.describe()).isEqualTo(!someProbeAdmitted);
    }

    @Property(tries = 300)
    void intersectionKeepsTheLargerMinValues(@ForAll("sets") ValueSet a, @ForAll("sets") ValueSet b) {
        Integer expected = a.minValues() == null ? b.minValues()
                : b.minValues() == null ? a.minValues() : Integer.valueOf(Math.max(a.minValues(), b.minValues()));
        assertThat(a.intersect(b).minValues()).isEqualTo(expected);
    }

    @Property(tries = 300)
    void writtenRequirementsDescribeTheSameSet(@ForAll("sets") ValueSet a, @ForAll("sets") ValueSet b) {
        ValueSet s = a.intersect(b);
        List<Requirement> written = s.toRequirements("k");
        // Well formed apart from minValues, which may legitimately exceed what an intersection left.
        written.forEach(r -> assertThat(new Requirement(r.key(), r.operator(), r.values(), null).validate()).as("%s", r).isNull());
        ValueSet reread = Requirements.of(written).get("k");
        for (String v : Generators.PROBES) {
            assertThat(reread.has(v)).as("has(%s) on %s written as %s", v, s.describe(), written).isEqualTo(s.has(v));
        }
    }

    @Property(tries = 500)
    void gtIsGteOfTheNextInteger(@ForAll @LongRange(min = Long.MIN_VALUE, max = Long.MAX_VALUE - 1) long n) {
        ValueSet gt = ValueSet.of(Requirement.of("k", Operator.Gt, Long.toString(n)));
        ValueSet gte = ValueSet.of(Requirement.of("k", Operator.Gte, Long.toString(n + 1)));
        assertThat(gt).isEqualTo(gte);
        assertSameMembershipAround(gt, gte, n);
    }

    @Property(tries = 500)
    void ltIsLteOfThePreviousInteger(@ForAll @LongRange(min = Long.MIN_VALUE + 1, max = Long.MAX_VALUE) long n) {
        ValueSet lt = ValueSet.of(Requirement.of("k", Operator.Lt, Long.toString(n)));
        ValueSet lte = ValueSet.of(Requirement.of("k", Operator.Lte, Long.toString(n - 1)));
        assertThat(lt).isEqualTo(lte);
        assertSameMembershipAround(lt, lte, n);
    }

    @Property(tries = 300)
    void boundedSetsAgreeWithTheirGteAndLteFormsUnderIntersection(@ForAll("smallInts") int lo, @ForAll("smallInts") int hi,
                                                                 @ForAll("sets") ValueSet other) {
        ValueSet strict = ValueSet.of(Requirement.of("k", Operator.Gt, Integer.toString(lo)))
                .intersect(ValueSet.of(Requirement.of("k", Operator.Lt, Integer.toString(hi))));
        ValueSet inclusive = ValueSet.of(Requirement.of("k", Operator.Gte, Integer.toString(lo + 1)))
                .intersect(ValueSet.of(Requirement.of("k", Operator.Lte, Integer.toString(hi - 1))));
        assertThat(strict.intersect(other)).isEqualTo(inclusive.intersect(other));
        for (String v : Generators.PROBES) {
            assertThat(strict.has(v)).isEqualTo(inclusive.has(v));
        }
    }

    @Provide
    Arbitrary<Integer> smallInts() {
        return Arbitraries.integers().between(-3, 12);
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
