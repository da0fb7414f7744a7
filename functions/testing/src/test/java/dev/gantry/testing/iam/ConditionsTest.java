package dev.gantry.testing.iam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConditionsTest {
    private static final List<String> ABSENT = null;

    @Test
    void stringEqualsIsExactAndCaseSensitiveWithPolicyValuesAsAlternatives() {
        assertThat(Conditions.holds("StringEquals", "k", List.of("a", "b"), List.of("b"))).isTrue();
        assertThat(Conditions.holds("StringEquals", "k", List.of("a"), List.of("A"))).isFalse();
        assertThat(Conditions.holds("StringEqualsIgnoreCase", "k", List.of("a"), List.of("A"))).isTrue();
    }

    @Test
    void aPositiveOperatorOnAnAbsentKeyIsFalse() {
        assertThat(Conditions.holds("StringEquals", "k", List.of("a"), ABSENT)).isFalse();
        assertThat(Conditions.holds("StringLike", "k", List.of("*"), ABSENT)).isFalse();
        assertThat(Conditions.holds("ArnLike", "k", List.of("*"), ABSENT)).isFalse();
        assertThat(Conditions.holds("Bool", "k", List.of("true"), ABSENT)).isFalse();
    }

    @Test
    void aNegatedOperatorOnAnAbsentKeyIsTrueAndOtherwiseMatchesNoneOfTheValues() {
        assertThat(Conditions.holds("StringNotEquals", "k", List.of("a"), ABSENT)).isTrue();
        assertThat(Conditions.holds("StringNotEquals", "k", List.of("a", "b"), List.of("c"))).isTrue();
        assertThat(Conditions.holds("StringNotEquals", "k", List.of("a", "b"), List.of("b"))).isFalse();
        assertThat(Conditions.holds("StringNotLike", "k", List.of("gantry.dev/*"), List.of("gantry.dev/x"))).isFalse();
        assertThat(Conditions.holds("ArnNotLike", "k", List.of("arn:aws:iam::1:role/a*"), List.of("arn:aws:iam::1:role/b")))
                .isTrue();
    }

    @Test
    void ifExistsIsTrueWhenTheKeyIsAbsentAndEvaluatesItOtherwise() {
        assertThat(Conditions.holds("StringEqualsIfExists", "k", List.of("a"), ABSENT)).isTrue();
        assertThat(Conditions.holds("StringEqualsIfExists", "k", List.of("a"), List.of("b"))).isFalse();
    }

    @Test
    void stringLikeUsesStarAndQuestionMarkWildcards() {
        assertThat(Conditions.holds("StringLike", "k", List.of("*"), List.of(""))).isTrue();
        assertThat(Conditions.holds("StringLike", "k", List.of("ab?d*"), List.of("abcdef"))).isTrue();
        assertThat(Conditions.holds("StringLike", "k", List.of("ab?d"), List.of("abd"))).isFalse();
        assertThat(Conditions.holds("StringLike", "k", List.of("a*"), List.of("Ab"))).isFalse();
    }

    @Test
    void forAllValuesIsTrueOnAnEmptyOrAbsentSetAndNeedsEveryValueToMatch() {
        List<String> allowed = List.of("gantry.dev/nodeclaim", "Name");
        assertThat(Conditions.holds("ForAllValues:StringEquals", "aws:TagKeys", allowed, ABSENT)).isTrue();
        assertThat(Conditions.holds("ForAllValues:StringEquals", "aws:TagKeys", allowed, List.of())).isTrue();
        assertThat(Conditions.holds("ForAllValues:StringEquals", "aws:TagKeys", allowed, List.of("Name"))).isTrue();
        assertThat(Conditions.holds("ForAllValues:StringEquals", "aws:TagKeys", allowed, List.of("Name", "owner")))
                .isFalse();
    }

    @Test
    void forAnyValueNeedsOneMatchingValueAndIsFalseOnAnAbsentKey() {
        assertThat(Conditions.holds("ForAnyValue:StringLike", "aws:TagKeys", List.of("gantry.dev/*"),
                List.of("team", "gantry.dev/cluster"))).isTrue();
        assertThat(Conditions.holds("ForAnyValue:StringLike", "aws:TagKeys", List.of("gantry.dev/*"),
                List.of("team"))).isFalse();
        assertThat(Conditions.holds("ForAnyValue:StringLike", "aws:TagKeys", List.of("gantry.dev/*"), ABSENT)).isFalse();
    }

    @Test
    void nullTestsWhetherTheKeyIsPresent() {
        assertThat(Conditions.holds("Null", "k", List.of("true"), ABSENT)).isTrue();
        assertThat(Conditions.holds("Null", "k", List.of("true"), List.of("v"))).isFalse();
        assertThat(Conditions.holds("Null", "k", List.of("false"), List.of("v"))).isTrue();
        assertThat(Conditions.holds("Null", "k", List.of("false"), ABSENT)).isFalse();
    }

    @Test
    void boolComparesTrueAndFalseIgnoringCase() {
        assertThat(Conditions.holds("Bool", "aws:SecureTransport", List.of("true"), List.of("TRUE"))).isTrue();
        assertThat(Conditions.holds("Bool", "aws:SecureTransport", List.of("true"), List.of("false"))).isFalse();
    }

    @Test
    void arnEqualsAndArnLikeMatchPartByPartWithWildcards() {
        String role = "arn:aws:iam::123456789012:role/gantry-node-role";
        assertThat(Conditions.holds("ArnEquals", "k", List.of(role), List.of(role))).isTrue();
        assertThat(Conditions.holds("ArnLike", "k", List.of("arn:aws:iam::*:role/gantry-*"), List.of(role))).isTrue();
        assertThat(Conditions.holds("ArnLike", "k", List.of("arn:aws:iam::*:role/other"), List.of(role))).isFalse();
        assertThat(Conditions.holds("ArnLike", "k", List.of("arn:aws:iam:*"), List.of(role)))
                .as("a pattern of fewer than six parts does not match").isFalse();
    }

    @Test
    void everyOperatorAndEveryKeyOfABlockMustHold() {
        Map<String, Map<String, List<String>>> block = Map.of(
                "StringEquals", Map.of("aws:RequestTag/gantry.dev/cluster", List.of("demo")),
                "StringLike", Map.of("aws:RequestTag/gantry.dev/nodepool", List.of("*")));
        IamRequest both = new IamRequest("ec2:CreateFleet", "*", Map.of("aws:RequestTag/gantry.dev/cluster",
                List.of("demo"), "aws:RequestTag/gantry.dev/nodepool", List.of("general")));
        IamRequest clusterOnly = new IamRequest("ec2:CreateFleet", "*", Map.of("aws:RequestTag/gantry.dev/cluster",
                List.of("demo")));
        assertThat(Conditions.hold(block, both)).isTrue();
        assertThat(Conditions.hold(block, clusterOnly)).isFalse();
    }

    @Test
    void conditionKeyNamesAreCaseInsensitive() {
        IamRequest r = new IamRequest("ec2:DescribeSubnets", "*", Map.of("aws:RequestedRegion", List.of("us-east-1")));
        assertThat(Conditions.hold(Map.of("StringEquals", Map.of("AWS:requestedregion", List.of("us-east-1"))), r))
                .isTrue();
    }

    @Test
    void anUnknownOperatorOrASingleValuedOperatorOnSeveralValuesIsAnError() {
        assertThatThrownBy(() -> Conditions.holds("NumericLessThan", "k", List.of("1"), List.of("0")))
                .hasMessageContaining("NumericLessThan");
        assertThatThrownBy(() -> Conditions.holds("StringEquals", "aws:TagKeys", List.of("a"), List.of("a", "b")))
                .hasMessageContaining("ForAllValues");
    }
}
