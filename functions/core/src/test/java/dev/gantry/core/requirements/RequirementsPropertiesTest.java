package dev.gantry.core.requirements;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Laws of {@link Requirements}, the per-key conjunction: those of {@link ValueSet}, lifted key by key. */
class RequirementsPropertiesTest {

    @Provide
    Arbitrary<Requirements> reqs() {
        return Generators.requirements();
    }

    @Provide
    Arbitrary<Requirements> satisfiable() {
        return Generators.satisfiableRequirements();
    }

    @Provide
    Arbitrary<Map<String, String>> labels() {
        return Generators.labels();
    }

    @Property(tries = 500)
    void intersectionIsCommutative(@ForAll("reqs") Requirements a, @ForAll("reqs") Requirements b) {
        assertThat(a.intersect(b)).isEqualTo(b.intersect(a));
    }

    @Property(tries = 500)
    void intersectionIsAssociative(@ForAll("reqs") Requirements a, @ForAll("reqs") Requirements b, @ForAll("reqs") Requirements c) {
        assertThat(a.intersect(b).intersect(c)).isEqualTo(a.intersect(b.intersect(c)));
    }

    @Property(tries = 300)
    void intersectionIsIdempotentAndNoneIsTheIdentity(@ForAll("reqs") Requirements a) {
        assertThat(a.intersect(a)).isEqualTo(a);
        assertThat(a.intersect(Requirements.NONE)).isEqualTo(a);
        assertThat(Requirements.NONE.intersect(a)).isEqualTo(a);
    }

    @Property(tries = 500)
    void compatibleExactlyWhenTheIntersectionIsSatisfiable(@ForAll("satisfiable") Requirements a, @ForAll("satisfiable") Requirements b) {
        assertThat(a.compatible(b)).as("%s vs %s", a, b).isEqualTo(!a.intersect(b).isUnsatisfiable());
        assertThat(a.compatible(b)).isEqualTo(b.compatible(a));
    }

    @Property(tries = 500)
    void compatibleRequirementsHaveANodeThatSatisfiesBoth(@ForAll("satisfiable") Requirements a, @ForAll("satisfiable") Requirements b) {
        Requirements both = a.intersect(b);
        if (!a.compatible(b)) {
            assertThat(both.firstEmptyKey()).isEqualTo(a.conflict(b));
            return;
        }
        Map<String, String> witness = new TreeMap<>();
        for (var e : both.asMap().entrySet()) {
            // The first admitted probe; absence (null, the last probe) only when no value is admitted.
            int i = 0;
            while (i < Generators.PROBES.size() && !e.getValue().has(Generators.PROBES.get(i))) {
                i++;
            }
            assertThat(i).as("some probe satisfies %s", e).isLessThan(Generators.PROBES.size());
            if (Generators.PROBES.get(i) != null) {
                witness.put(e.getKey(), Generators.PROBES.get(i));
            }
        }
        assertThat(a.matches(witness)).as("%s matches %s", a, witness).isTrue();
        assertThat(b.matches(witness)).as("%s matches %s", b, witness).isTrue();
    }

    @Property(tries = 500)
    void aNodeMatchesTheIntersectionExactlyWhenItMatchesBothSides(@ForAll("reqs") Requirements a, @ForAll("reqs") Requirements b,
                                                                 @ForAll("labels") Map<String, String> labels) {
        assertThat(a.intersect(b).matches(labels)).isEqualTo(a.matches(labels) && b.matches(labels));
        assertThat(a.intersect(b).firstUnmatched(labels) == null).isEqualTo(a.intersect(b).matches(labels));
    }

    @Property(tries = 300)
    void writtenListReadsBackToTheSameRequirements(@ForAll("reqs") Requirements a, @ForAll("labels") Map<String, String> labels) {
        assertThat(Requirements.of(a.toList()).matches(labels)).isEqualTo(a.matches(labels));
    }
}
