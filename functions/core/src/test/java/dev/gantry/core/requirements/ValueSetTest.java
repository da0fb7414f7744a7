package dev.gantry.core.requirements;

import static dev.gantry.core.requirements.Operator.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ValueSetTest {

    private static ValueSet set(Operator op, String... values) {
        return ValueSet.of(Requirement.of("k", op, values));
    }

    private static ValueSet all(ValueSet... sets) {
        ValueSet s = ValueSet.ANY;
        for (ValueSet x : sets) {
            s = s.intersect(x);
        }
        return s;
    }

    @Test
    void intersectingTwoSetsWithoutMinValuesKeepsMinValuesUnset() {
        // Regression: a ternary mixing Integer and int unboxed the null minValues and threw NullPointerException.
        ValueSet s = set(In, "a", "b").intersect(set(NotIn, "b"));
        assertThat(s.minValues()).isNull();
        assertThat(s).isEqualTo(ValueSet.in("a"));
    }

    @Test
    void intersectionKeepsMinValuesFromEitherSideAndTheLargerOfBoth() {
        ValueSet two = ValueSet.of(new Requirement("k", In, List.of("a", "b", "c"), 2));
        ValueSet three = ValueSet.of(new Requirement("k", In, List.of("a", "b", "c"), 3));
        assertThat(two.intersect(ValueSet.ANY).minValues()).isEqualTo(2);
        assertThat(ValueSet.ANY.intersect(two).minValues()).isEqualTo(2);
        assertThat(two.intersect(three).minValues()).isEqualTo(3);
        assertThat(three.intersect(two).minValues()).isEqualTo(3);
    }

    @Test
    void doesNotExistAndInAdmitNothing() {
        ValueSet s = set(DoesNotExist).intersect(set(In, "a"));
        assertThat(s.isEmpty()).isTrue();
        assertThat(s.has(null)).isFalse();
        assertThat(s.has("a")).isFalse();
    }

    @Test
    void notInAndDoesNotExistAdmitOnlyANodeWithoutTheLabel() {
        ValueSet s = set(NotIn, "a").intersect(set(DoesNotExist));
        assertThat(s.isEmpty()).isFalse();
        assertThat(s).isEqualTo(set(DoesNotExist));
        assertThat(s.has(null)).isTrue();
        assertThat(s.has("b")).isFalse();
    }

    @Test
    void existsAndDoesNotExistAdmitNothing() {
        assertThat(set(Exists).intersect(set(DoesNotExist)).isEmpty()).isTrue();
    }

    @Test
    void gtAndDoesNotExistAdmitNothing() {
        assertThat(set(Gt, "1").intersect(set(DoesNotExist)).isEmpty()).isTrue();
    }

    @Test
    void notInAndExistsRequireTheLabelWithAnotherValue() {
        ValueSet s = set(NotIn, "a").intersect(set(Exists));
        assertThat(s.has(null)).isFalse();
        assertThat(s.has("a")).isFalse();
        assertThat(s.has("b")).isTrue();
    }

    @Test
    void inAndNotInLeaveTheDifference() {
        assertThat(set(In, "a", "b", "c").intersect(set(NotIn, "b"))).isEqualTo(ValueSet.in("a", "c"));
    }

    @Test
    void twoNotInsExcludeBothListsAndStillAdmitAbsence() {
        ValueSet s = set(NotIn, "a").intersect(set(NotIn, "b"));
        assertThat(s.has("a")).isFalse();
        assertThat(s.has("b")).isFalse();
        assertThat(s.has("c")).isTrue();
        assertThat(s.has(null)).isTrue();
    }

    @Test
    void disjointInsAdmitNothing() {
        ValueSet s = set(In, "a").intersect(set(In, "b"));
        assertThat(s.isEmpty()).isTrue();
        assertThat(s.describe()).isEqualTo("nothing");
    }

    @Test
    void gtAndLtEnumerateTheIntegersBetween() {
        assertThat(set(Gt, "2").intersect(set(Lt, "5"))).isEqualTo(ValueSet.in("3", "4"));
        assertThat(set(Gte, "4").intersect(set(Lte, "4"))).isEqualTo(ValueSet.in("4"));
        assertThat(all(set(Gt, "1"), set(Lt, "10"), set(NotIn, "5")))
                .isEqualTo(ValueSet.in("2", "3", "4", "6", "7", "8", "9"));
    }

    @Test
    void adjacentBoundsAdmitNothing() {
        assertThat(set(Gt, "4").intersect(set(Lt, "5")).isEmpty()).isTrue();
        assertThat(set(Gt, "5").intersect(set(Lt, "2")).isEmpty()).isTrue();
        assertThat(set(Gte, "5").intersect(set(Lte, "4")).isEmpty()).isTrue();
    }

    @Test
    void boundsFilterAFiniteSetAndDropWords() {
        assertThat(set(Gt, "2").intersect(set(In, "1", "3", "x", "20"))).isEqualTo(ValueSet.in("20", "3"));
        assertThat(set(Lt, "2").intersect(set(In, "1", "3", "x"))).isEqualTo(ValueSet.in("1"));
    }

    @Test
    void aOneSidedBoundAdmitsEveryLargerIntegerButNoWord() {
        ValueSet gt = set(Gt, "4");
        assertThat(gt.has("5")).isTrue();
        assertThat(gt.has("4")).isFalse();
        assertThat(gt.has("9223372036854775807")).isTrue();
        assertThat(gt.has("9223372036854775808")).isFalse(); // not an int64, so not an integer to Kubernetes either
        assertThat(gt.has("five")).isFalse();
        assertThat(gt.has("4.5")).isFalse();
        assertThat(gt.isEmpty()).isFalse();
    }

    @Test
    @Timeout(value = 5, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // the old code never returned
    void boundsFarApartDoNotOverflowIntoAnEndlessEnumeration() {
        // Regression: lessThan - greaterThan wrapped negative, so the range looked small and was enumerated.
        ValueSet s = set(Gt, "-5000000000000000000").intersect(set(Lt, "5000000000000000000"));
        assertThat(s.isEmpty()).isFalse();
        assertThat(s.has("0")).isTrue();
        assertThat(s.has("5000000000000000000")).isFalse();
    }

    @Test
    void boundsBeyondTheLongRangeAdmitNothing() {
        // Regression: Gt MAX_VALUE admitted no value yet was reported non-empty, so it looked compatible with Exists.
        assertThat(set(Gt, Long.toString(Long.MAX_VALUE)).isEmpty()).isTrue();
        assertThat(set(Lt, Long.toString(Long.MIN_VALUE)).isEmpty()).isTrue();
        assertThat(Requirements.of(Requirement.of("k", Gt, Long.toString(Long.MAX_VALUE)))
                .compatible(Requirements.of(Requirement.of("k", Exists)))).isFalse();
    }

    @Test
    void gteAndLteAtTheLongExtremesDoNotWrapAround() {
        // Regression: Gte MIN_VALUE computed MIN_VALUE - 1, which wrapped to Gt MAX_VALUE and admitted nothing.
        assertThat(set(Gte, Long.toString(Long.MIN_VALUE)).has("0")).isTrue();
        assertThat(set(Lte, Long.toString(Long.MAX_VALUE)).has("0")).isTrue();
        assertThat(set(Lte, Long.toString(Long.MAX_VALUE)).has(Long.toString(Long.MAX_VALUE - 1))).isTrue();
    }

    @Test
    void notInWithExistsIsWrittenWithExistsSoThatAbsenceStaysExcluded() {
        // Regression: written as NotIn alone, which a node without the label satisfies.
        ValueSet s = set(NotIn, "a").intersect(set(Exists));
        assertThat(s.toRequirements("k")).containsExactly(
                new Requirement("k", NotIn, List.of("a"), null), new Requirement("k", Exists, List.of(), null));
    }

    @Test
    void theEmptySetIsWrittenAsExistsAndDoesNotExist() {
        ValueSet empty = set(In, "a").intersect(set(In, "b"));
        List<Requirement> written = empty.toRequirements("k");
        assertThat(written).extracting(Requirement::operator).containsExactly(DoesNotExist, Exists);
        assertThat(Requirements.of(written).isUnsatisfiable()).isTrue();
    }

    @Test
    void eachOperatorIsWrittenBackAsItself() {
        assertThat(set(In, "b", "a").toRequirements("k")).containsExactly(Requirement.of("k", In, "a", "b"));
        assertThat(set(NotIn, "a").toRequirements("k")).containsExactly(Requirement.of("k", NotIn, "a"));
        assertThat(set(Exists).toRequirements("k")).containsExactly(Requirement.of("k", Exists));
        assertThat(set(DoesNotExist).toRequirements("k")).containsExactly(Requirement.of("k", DoesNotExist));
        assertThat(set(Gt, "3").toRequirements("k")).containsExactly(Requirement.of("k", Gt, "3"));
        assertThat(set(Lte, "3").toRequirements("k")).containsExactly(Requirement.of("k", Lt, "4"));
        assertThat(ValueSet.ANY.toRequirements("k")).isEmpty();
    }

    @Test
    void describesEachShapeForAPerson() {
        assertThat(set(In, "b", "a").describe()).isEqualTo("In [a, b]");
        assertThat(set(NotIn, "x").describe()).isEqualTo("NotIn [x]");
        assertThat(set(Gt, "4").describe()).isEqualTo("Gt 4");
        assertThat(set(Exists).describe()).isEqualTo("Exists");
        assertThat(set(DoesNotExist).describe()).isEqualTo("DoesNotExist");
        assertThat(ValueSet.ANY.describe()).isEqualTo("any");
    }

    @Test
    void reportsTheOperatorThatDescribesEachShape() {
        assertThat(set(In, "a").operator()).isEqualTo(In);
        assertThat(set(NotIn, "a").operator()).isEqualTo(NotIn);
        assertThat(set(Exists).operator()).isEqualTo(Exists);
        assertThat(set(DoesNotExist).operator()).isEqualTo(DoesNotExist);
        assertThat(set(Gt, "1").operator()).isEqualTo(Gt);
        assertThat(set(Lt, "1").operator()).isEqualTo(Lt);
    }

    @Test
    void singleValueIsTheOnlyValueOfAOneValuedFiniteSet() {
        assertThat(set(In, "a").singleValue()).isEqualTo("a");
        assertThat(set(In, "a", "b").singleValue()).isNull();
        assertThat(set(NotIn, "a").singleValue()).isNull();
        assertThat(set(Gte, "4").intersect(set(Lt, "5")).singleValue()).isEqualTo("4");
    }

    @Test
    void filterKeepsTheUniverseMembersTheSetAdmits() {
        assertThat(set(NotIn, "b").filter(List.of("a", "b", "c"))).containsExactly("a", "c");
        assertThat(set(Gt, "2").filter(List.of("1", "2", "3", "x"))).containsExactly("3");
    }

    @Test
    void finiteSetsAreIndependentOfTheCollectionTheyWereBuiltFrom() {
        java.util.ArrayList<String> source = new java.util.ArrayList<>(List.of("a"));
        ValueSet s = ValueSet.in(source);
        source.add("b");
        assertThat(s.has("b")).isFalse();
        assertThat(s.isFinite()).isTrue();
    }
}
