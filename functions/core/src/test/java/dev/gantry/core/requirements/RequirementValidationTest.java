package dev.gantry.core.requirements;

import static dev.gantry.core.requirements.Operator.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RequirementValidationTest {

    private static String problem(Operator op, Integer minValues, String... values) {
        return new Requirement("k", op, List.of(values), minValues).validate();
    }

    @Test
    void acceptsWellFormedRequirementsOfEveryOperator() {
        assertThat(problem(In, null, "a")).isNull();
        assertThat(problem(NotIn, null, "a", "b")).isNull();
        assertThat(problem(Exists, null)).isNull();
        assertThat(problem(DoesNotExist, null)).isNull();
        assertThat(problem(Gt, null, "4")).isNull();
        assertThat(problem(Lt, null, "-1")).isNull();
        assertThat(problem(Gte, null, "0")).isNull();
        assertThat(problem(Lte, null, "+7")).isNull(); // Go's strconv.ParseInt accepts a leading sign too
        assertThat(problem(In, 2, "a", "b")).isNull();
        assertThat(problem(Exists, 3)).isNull(); // minValues bounds only In by its value count
    }

    @Test
    void rejectsInAndNotInWithoutValues() {
        assertThat(problem(In, null)).isEqualTo("operator In needs at least one value");
        assertThat(problem(NotIn, null)).isEqualTo("operator NotIn needs at least one value");
    }

    @Test
    void rejectsExistsAndDoesNotExistWithValues() {
        assertThat(problem(Exists, null, "a")).isEqualTo("operator Exists takes no values");
        assertThat(problem(DoesNotExist, null, "a")).isEqualTo("operator DoesNotExist takes no values");
    }

    @Test
    void rejectsNumericOperatorsWithoutExactlyOneValue() {
        assertThat(problem(Gt, null)).isEqualTo("operator Gt takes exactly one value");
        assertThat(problem(Lt, null, "1", "2")).isEqualTo("operator Lt takes exactly one value");
    }

    @Test
    void rejectsGtWithNonIntegerValue() {
        assertThat(problem(Gt, null, "abc")).isEqualTo("operator Gt needs an integer value, not 'abc'");
        assertThat(problem(Lt, null, "1.5")).isEqualTo("operator Lt needs an integer value, not '1.5'");
        assertThat(problem(Gte, null, "9223372036854775808")).isEqualTo("operator Gte needs an integer value, not '9223372036854775808'");
        assertThat(problem(Lte, null, " 3")).isEqualTo("operator Lte needs an integer value, not ' 3'");
    }

    @Test
    void rejectsMinValuesBelowOne() {
        assertThat(problem(In, 0, "a")).isEqualTo("minValues must be at least 1");
        assertThat(problem(Exists, -1)).isEqualTo("minValues must be at least 1");
    }

    @Test
    void rejectsMinValuesLargerThanTheValuesOfIn() {
        assertThat(problem(In, 3, "a", "b")).isEqualTo("minValues 3 is more than the 2 values given");
    }

    @Test
    void parsesOnlyTheExactOperatorSpelling() {
        assertThat(Operator.parse("DoesNotExist")).isEqualTo(DoesNotExist);
        assertThatThrownBy(() -> Operator.parse("in")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'in' is not an operator (In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte)");
        assertThatThrownBy(() -> Operator.parse("Equals")).hasMessageStartingWith("'Equals' is not an operator");
    }

    @Test
    void treatsMissingValuesAsNoValuesAndCopiesTheList() {
        assertThat(new Requirement("k", Exists, null, null).values()).isEmpty();
        java.util.List<String> vs = new java.util.ArrayList<>(List.of("a"));
        Requirement r = new Requirement("k", In, vs, null);
        vs.add("b");
        assertThat(r.values()).containsExactly("a");
    }

    @Test
    void rejectsAMissingKeyOrOperator() {
        assertThatThrownBy(() -> new Requirement(null, In, List.of("a"), null)).hasMessage("key");
        assertThatThrownBy(() -> new Requirement("k", null, List.of("a"), null)).hasMessage("operator");
    }

    @Test
    void printsAsWritten() {
        assertThat(new Requirement("k", In, List.of("a", "b"), 2)).hasToString("k In [a, b] minValues 2");
        assertThat(Requirement.of("k", Exists)).hasToString("k Exists");
    }
}
