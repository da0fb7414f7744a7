package dev.gantry.core.requirements;

import static dev.gantry.core.requirements.Generators.theory;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

/** Laws of {@link Requirements}, the per-key conjunction: those of {@link ValueSet}, lifted key by key. */
class RequirementsPropertiesTest {
    private static final Gen<Requirements> REQS = Generators.requirements();
    private static final Gen<Requirements> SATISFIABLE = Generators.satisfiableRequirements();
    private static final Gen<Map<String, String>> LABELS = Generators.labels();

    @Test
    void intersectionIsCommutative() {
        theory(500).forAll(REQS, REQS).checkAssert((a, b) -> assertThat(a.intersect(b)).isEqualTo(b.intersect(a)));
    }

    @Test
    void intersectionIsAssociative() {
        theory(500).forAll(REQS, REQS, REQS)
                .checkAssert((a, b, c) -> assertThat(a.intersect(b).intersect(c)).isEqualTo(a.intersect(b.intersect(c))));
    }

    @Test
    void intersectionIsIdempotentAndNoneIsTheIdentity() {
        theory(300).forAll(REQS).checkAssert(a -> {
            assertThat(a.intersect(a)).isEqualTo(a);
            assertThat(a.intersect(Requirements.NONE)).isEqualTo(a);
            assertThat(Requirements.NONE.intersect(a)).isEqualTo(a);
        });
    }

    @Test
    void compatibleExactlyWhenTheIntersectionIsSatisfiable() {
        satisfiable(500).forAll(SATISFIABLE, SATISFIABLE).checkAssert((a, b) -> {
            assertThat(a.compatible(b)).as("%s vs %s", a, b).isEqualTo(!a.intersect(b).isUnsatisfiable());
            assertThat(a.compatible(b)).isEqualTo(b.compatible(a));
        });
    }

    @Test
    void compatibleRequirementsHaveANodeThatSatisfiesBoth() {
        satisfiable(500).forAll(SATISFIABLE, SATISFIABLE).checkAssert((a, b) -> {
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
        });
    }

    @Test
    void aNodeMatchesTheIntersectionExactlyWhenItMatchesBothSides() {
        theory(500).forAll(REQS, REQS, LABELS).checkAssert((a, b, labels) -> {
            assertThat(a.intersect(b).matches(labels)).isEqualTo(a.matches(labels) && b.matches(labels));
            assertThat(a.intersect(b).firstUnmatched(labels) == null).isEqualTo(a.intersect(b).matches(labels));
        });
    }

    @Test
    void writtenListReadsBackToTheSameRequirements() {
        theory(300).forAll(REQS, LABELS)
                .checkAssert((a, labels) -> assertThat(Requirements.of(a.toList()).matches(labels)).isEqualTo(a.matches(labels)));
    }

    /** Room for the satisfiable filter's rejects: QuickTheories gives up after that many rejects within one example. */
    private static QuickTheory satisfiable(int examples) {
        return theory(examples).withGenerateAttempts(1_000);
    }
}
