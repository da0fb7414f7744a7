package dev.gantry.testing.iam;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WildcardsTest {
    @Test
    void starMatchesAnyRunAndQuestionMarkOneCharacter() {
        assertThat(Wildcards.matches("a*c", "ac", false)).isTrue();
        assertThat(Wildcards.matches("a*c", "abbbc", false)).isTrue();
        assertThat(Wildcards.matches("a*c", "abbbd", false)).isFalse();
        assertThat(Wildcards.matches("a?c", "abc", false)).isTrue();
        assertThat(Wildcards.matches("a?c", "ac", false)).isFalse();
        assertThat(Wildcards.matches("*a*b*", "xxaxxbxx", false)).isTrue();
        assertThat(Wildcards.matches("abc", "ABC", true)).isTrue();
        assertThat(Wildcards.matches("abc", "ABC", false)).isFalse();
    }

    @Test
    void otherRegexCharactersAreLiteral() {
        assertThat(Wildcards.matches("a.c", "abc", false)).isFalse();
        assertThat(Wildcards.matches("a.c(", "a.c(", false)).isTrue();
    }

    @Test
    void arnPartsAreMatchedSeparatelySoAStarStaysInItsPart() {
        assertThat(Wildcards.arnMatches("arn:aws:ec2:*:123456789012:instance/*",
                "arn:aws:ec2:us-east-1:123456789012:instance/i-1")).isTrue();
        assertThat(Wildcards.arnMatches("arn:aws:ec2:us-east-1*:instance/*",
                "arn:aws:ec2:us-east-1:123456789012:instance/i-1")).as("a star does not span parts").isFalse();
        assertThat(Wildcards.arnMatches("arn:aws:logs:us-east-1:1:log-group:g:*",
                "arn:aws:logs:us-east-1:1:log-group:g:log-stream:s")).as("the resource part keeps its colons").isTrue();
        assertThat(Wildcards.arnMatches("*", "anything")).isTrue();
    }
}
