package dev.gantry.core.requirements;

import static dev.gantry.core.requirements.Operator.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequirementsTest {

    @Test
    void severalRequirementsOnOneKeyIntersect() {
        Requirements r = Requirements.of(Requirement.of("k", In, "a", "b", "c"), Requirement.of("k", NotIn, "b"));
        assertThat(r.get("k")).isEqualTo(ValueSet.in("a", "c"));
        assertThat(r.keys()).containsExactly("k");
    }

    @Test
    void anUnconstrainedKeyAdmitsEverything() {
        Requirements r = Requirements.of(Requirement.of("k", In, "a"));
        assertThat(r.get("other")).isEqualTo(ValueSet.ANY);
        assertThat(r.has("other")).isFalse();
        assertThat(Requirements.NONE.isEmpty()).isTrue();
        assertThat(Requirements.NONE.matches(Map.of())).isTrue();
    }

    @Test
    void namesTheFirstKeyThatConflicts() {
        Requirements pool = Requirements.of(Requirement.of("arch", In, "amd64"), Requirement.of("zone", In, "a"));
        Requirements pod = Requirements.of(Requirement.of("arch", In, "arm64"), Requirement.of("zone", In, "b"));
        assertThat(pool.conflict(pod)).isEqualTo("arch");
        assertThat(pool.compatible(pod)).isFalse();
        assertThat(pool.intersect(pod).firstEmptyKey()).isEqualTo("arch");
        assertThat(pool.intersect(pod).isUnsatisfiable()).isTrue();
    }

    @Test
    void keysOnOneSideOnlyNeverConflict() {
        Requirements a = Requirements.of(Requirement.of("x", In, "1"));
        Requirements b = Requirements.of(Requirement.of("y", DoesNotExist));
        assertThat(a.compatible(b)).isTrue();
        assertThat(a.intersect(b).keys()).containsExactly("x", "y");
    }

    @Test
    void doesNotExistIsCompatibleWithNotInButNotWithIn() {
        Requirements dne = Requirements.of(Requirement.of("k", DoesNotExist));
        assertThat(dne.compatible(Requirements.of(Requirement.of("k", NotIn, "a")))).isTrue();
        assertThat(dne.compatible(Requirements.of(Requirement.of("k", In, "a")))).isFalse();
        assertThat(dne.compatible(Requirements.of(Requirement.of("k", Exists)))).isFalse();
        assertThat(dne.compatible(Requirements.of(Requirement.of("k", Gt, "0")))).isFalse();
    }

    @Test
    void matchesANodeByItsLabelsWithAbsentLabelsCountingAsAbsent() {
        Requirements r = Requirements.of(Requirement.of("arch", In, "arm64"), Requirement.of("gpu", DoesNotExist),
                Requirement.of("cpu", Gt, "2"));
        assertThat(r.matches(Map.of("arch", "arm64", "cpu", "4"))).isTrue();
        assertThat(r.matches(Map.of("arch", "arm64", "cpu", "4", "gpu", "a10"))).isFalse();
        assertThat(r.firstUnmatched(Map.of("arch", "arm64", "cpu", "2"))).isEqualTo("cpu");
        assertThat(r.firstUnmatched(Map.of("cpu", "8"))).isEqualTo("arch");
        assertThat(r.firstUnmatched(Map.of("arch", "arm64", "cpu", "3"))).isNull();
    }

    @Test
    void fromLabelsPinsEachLabelToItsValue() {
        Requirements node = Requirements.fromLabels(Map.of("arch", "arm64", "zone", "a"));
        assertThat(node.singleValuedLabels()).isEqualTo(Map.of("arch", "arm64", "zone", "a"));
        assertThat(node.compatible(Requirements.of(Requirement.of("arch", NotIn, "amd64")))).isTrue();
        assertThat(node.compatible(Requirements.of(Requirement.of("zone", In, "b")))).isFalse();
    }

    @Test
    void withNarrowsOneKey() {
        Requirements r = Requirements.of(Requirement.of("k", In, "a", "b")).with("k", ValueSet.in("b", "c"));
        assertThat(r.get("k")).isEqualTo(ValueSet.in("b"));
        assertThat(Requirements.NONE.with("beta.kubernetes.io/os", ValueSet.in("linux")).keys())
                .containsExactly(WellKnownLabels.OS);
    }

    @Test
    void singleValuedLabelsAreThoseANodeLaunchedUnderTheRequirementsCarries() {
        Requirements r = Requirements.of(Requirement.of("a", In, "1"), Requirement.of("b", In, "1", "2"),
                Requirement.of("c", Gte, "3"), Requirement.of("c", Lte, "3"));
        assertThat(r.singleValuedLabels()).isEqualTo(Map.of("a", "1", "c", "3"));
    }

    @Test
    void writesOneOrMoreRequirementsPerKeyInKeyOrder() {
        Requirements r = Requirements.of(Requirement.of("z", In, "1"), Requirement.of("a", NotIn, "x"), Requirement.of("a", Exists));
        assertThat(r.toList()).containsExactly(Requirement.of("a", NotIn, "x"), Requirement.of("a", Exists), Requirement.of("z", In, "1"));
        assertThat(Requirements.of(r.toList())).isEqualTo(r);
    }

    @Test
    void equalRequirementsHaveEqualHashesAndAReadableForm() {
        Requirements a = Requirements.of(List.of(Requirement.of("k", In, "a", "b")));
        Requirements b = Requirements.of(Requirement.of("k", In, "b", "a"));
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.toString()).isEqualTo("{k In [a, b]}");
        assertThat(Requirements.ofSets(Map.of("k", ValueSet.in("a", "b")))).isEqualTo(a);
    }
}
