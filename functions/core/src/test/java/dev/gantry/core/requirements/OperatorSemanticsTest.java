package dev.gantry.core.requirements;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each operator matched against a node as Kubernetes' node affinity matches it: {@code NotIn} and
 * {@code DoesNotExist} accept a node without the label; {@code In}, {@code Exists}, {@code Gt}, {@code Lt}
 * (and Karpenter's {@code Gte}, {@code Lte}) require the label. Numeric operators compare the label as an int64.
 */
class OperatorSemanticsTest {

    @ParameterizedTest(name = "{0} {1} against {2} -> {3}")
    @CsvSource(nullValues = "ABSENT", value = {
            // operator, requirement values, node label value, matches
            "In,           a|b, a,      true",
            "In,           a|b, c,      false",
            "In,           a|b, ABSENT, false",
            "NotIn,        a|b, a,      false",
            "NotIn,        a|b, c,      true",
            "NotIn,        a|b, ABSENT, true",
            "Exists,       '',  a,      true",
            "Exists,       '',  '',     true",
            "Exists,       '',  ABSENT, false",
            "DoesNotExist, '',  a,      false",
            "DoesNotExist, '',  ABSENT, true",
            "Gt,           5,   6,      true",
            "Gt,           5,   5,      false",
            "Gt,           5,   10,     true",
            "Gt,           5,   abc,    false",
            "Gt,           5,   ABSENT, false",
            "Gt,           -1,  0,      true",
            "Lt,           5,   4,      true",
            "Lt,           5,   5,      false",
            "Lt,           5,   -7,     true",
            "Lt,           5,   ABSENT, false",
            "Gte,          5,   5,      true",
            "Gte,          5,   4,      false",
            "Gte,          5,   ABSENT, false",
            "Lte,          5,   5,      true",
            "Lte,          5,   6,      false",
            "Lte,          5,   ABSENT, false",
    })
    void matchesANodeAsKubernetesDoes(String op, String values, String label, boolean matches) {
        List<String> vs = values.isEmpty() ? List.of() : List.of(values.split("\\|"));
        Requirement r = new Requirement("example.com/k", Operator.parse(op), vs, null);
        assertThat(r.validate()).isNull();
        Map<String, String> node = new HashMap<>();
        node.put("other", "x");
        if (label != null) {
            node.put("example.com/k", label);
        }
        assertThat(Requirements.of(r).matches(node)).isEqualTo(matches);
        assertThat(ValueSet.of(r).has(label)).isEqualTo(matches);
    }

    @ParameterizedTest
    @CsvSource({"In, false", "NotIn, false", "Exists, false", "DoesNotExist, false", "Gt, true", "Lt, true", "Gte, true", "Lte, true"})
    void numericOperatorsAreTheFourComparisons(String op, boolean numeric) {
        assertThat(Operator.parse(op).isNumeric()).isEqualTo(numeric);
    }
}
