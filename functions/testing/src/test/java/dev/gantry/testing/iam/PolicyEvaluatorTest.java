package dev.gantry.testing.iam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.testing.iam.PolicyEvaluator.Outcome;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyEvaluatorTest {
    private static final String INSTANCES = "arn:aws:ec2:us-east-1:123456789012:instance/*";
    private static final String INSTANCE = "arn:aws:ec2:us-east-1:123456789012:instance/i-1";

    private static Statement allow(String sid, Object actions, Object resources) {
        return Statement.parse(Map.of("Sid", sid, "Effect", "Allow", "Action", actions, "Resource", resources));
    }

    private static IamRequest request(String action, String resource) {
        return new IamRequest(action, resource, Map.of());
    }

    @Test
    void nothingIsAllowedWithoutAnApplicableAllow() {
        PolicyEvaluator e = new PolicyEvaluator(List.of(allow("A", "ec2:DescribeInstances", "*")));
        assertThat(e.evaluate(request("ec2:TerminateInstances", INSTANCE)).outcome()).isEqualTo(Outcome.IMPLICIT_DENY);
        assertThat(new PolicyEvaluator(List.of()).evaluate(request("ec2:DescribeInstances", "*")).outcome())
                .isEqualTo(Outcome.IMPLICIT_DENY);
    }

    @Test
    void anApplicableAllowAllowsAndNamesItsStatement() {
        PolicyEvaluator e = new PolicyEvaluator(List.of(allow("A", List.of("ec2:TerminateInstances"), INSTANCES)));
        PolicyEvaluator.Decision d = e.evaluate(request("ec2:TerminateInstances", INSTANCE));
        assertThat(d.allowed()).isTrue();
        assertThat(d.sid()).contains("A");
    }

    @Test
    void anExplicitDenyWinsOverAnyAllowWhateverTheOrder() {
        Statement deny = Statement.parse(Map.of("Sid", "D", "Effect", "Deny", "Action", "ec2:*", "Resource", "*"));
        for (List<Statement> order : List.of(List.of(allow("A", "ec2:*", "*"), deny), List.of(deny, allow("A", "ec2:*", "*")))) {
            PolicyEvaluator.Decision d = new PolicyEvaluator(order).evaluate(request("ec2:TerminateInstances", INSTANCE));
            assertThat(d.outcome()).isEqualTo(Outcome.EXPLICIT_DENY);
            assertThat(d.sid()).contains("D");
        }
    }

    @Test
    void aDenyWhoseConditionFailsDoesNotApply() {
        Statement deny = Statement.parse(Map.of("Effect", "Deny", "Action", "ec2:*", "Resource", "*",
                "Condition", Map.of("StringNotEquals", Map.of("aws:RequestedRegion", "us-east-1"))));
        PolicyEvaluator e = new PolicyEvaluator(List.of(allow("A", "ec2:*", "*"), deny));
        assertThat(e.evaluate(new IamRequest("ec2:DescribeImages", "*",
                Map.of("aws:RequestedRegion", List.of("us-east-1")))).allowed()).isTrue();
        assertThat(e.evaluate(new IamRequest("ec2:DescribeImages", "*",
                Map.of("aws:RequestedRegion", List.of("eu-west-1")))).outcome()).isEqualTo(Outcome.EXPLICIT_DENY);
    }

    @Test
    void actionsMatchWithWildcardsIgnoringCase() {
        PolicyEvaluator e = new PolicyEvaluator(List.of(allow("A", "EC2:describe*", "*")));
        assertThat(e.evaluate(request("ec2:DescribeSubnets", "*")).allowed()).isTrue();
        assertThat(e.evaluate(request("ec2:CreateFleet", "*")).allowed()).isFalse();
        assertThat(e.evaluate(request("ec2:DescribeSubnet", "*")).allowed()).isTrue();
        assertThat(new PolicyEvaluator(List.of(allow("B", "ec2:Describe?mages", "*")))
                .evaluate(request("ec2:DescribeImages", "*")).allowed()).isTrue();
    }

    @Test
    void resourcesMatchArnPatternsPartByPart() {
        PolicyEvaluator e = new PolicyEvaluator(List.of(allow("A", "ec2:TerminateInstances", INSTANCES)));
        assertThat(e.evaluate(request("ec2:TerminateInstances", INSTANCE)).allowed()).isTrue();
        assertThat(e.evaluate(request("ec2:TerminateInstances", "arn:aws:ec2:eu-west-1:123456789012:instance/i-1"))
                .allowed()).as("another region").isFalse();
        assertThat(e.evaluate(request("ec2:TerminateInstances", "arn:aws:ec2:us-east-1:999999999999:instance/i-1"))
                .allowed()).as("another account").isFalse();
        assertThat(e.evaluate(request("ec2:TerminateInstances", "arn:aws:ec2:us-east-1:123456789012:volume/v-1"))
                .allowed()).as("another type").isFalse();
    }

    @Test
    void notActionAndNotResourceApplyToEverythingElse() {
        Statement notAction = Statement.parse(Map.of("Effect", "Allow", "NotAction", "iam:*", "Resource", "*"));
        Statement notResource = Statement.parse(Map.of("Effect", "Deny", "Action", "ec2:TerminateInstances",
                "NotResource", INSTANCES));
        PolicyEvaluator e = new PolicyEvaluator(List.of(notAction, notResource));
        assertThat(e.evaluate(request("ec2:TerminateInstances", INSTANCE)).allowed()).isTrue();
        assertThat(e.evaluate(request("iam:PassRole", "*")).outcome()).isEqualTo(Outcome.IMPLICIT_DENY);
        assertThat(e.evaluate(request("ec2:TerminateInstances", "arn:aws:ec2:us-east-1:123456789012:volume/v-1"))
                .outcome()).isEqualTo(Outcome.EXPLICIT_DENY);
    }

    @Test
    void aCallOfSeveralResourcesIsAllowedOnlyIfEveryResourceIs() {
        PolicyEvaluator e = new PolicyEvaluator(List.of(allow("A", "ec2:CreateFleet", List.of(
                "arn:aws:ec2:us-east-1:123456789012:fleet/*", INSTANCES))));
        IamRequest fleet = request("ec2:CreateFleet", "arn:aws:ec2:us-east-1:123456789012:fleet/*");
        IamRequest instance = request("ec2:CreateFleet", "arn:aws:ec2:us-east-1:123456789012:instance/*");
        IamRequest subnet = request("ec2:CreateFleet", "arn:aws:ec2:us-east-1:123456789012:subnet/subnet-1");
        assertThat(e.firstDenial(List.of(fleet, instance))).isEmpty();
        assertThat(e.firstDenial(List.of(fleet, subnet, instance))).get()
                .satisfies(d -> assertThat(d.request()).isEqualTo(subnet));
    }

    @Test
    void tagConditionsDecideOnTheRequestOrResourceTags() {
        Statement s = Statement.parse(Map.of("Effect", "Allow", "Action", "ec2:TerminateInstances", "Resource", INSTANCES,
                "Condition", Map.of("StringEquals", Map.of("aws:ResourceTag/gantry.dev/cluster", "demo"))));
        PolicyEvaluator e = new PolicyEvaluator(List.of(s));
        assertThat(e.evaluate(new IamRequest("ec2:TerminateInstances", INSTANCE,
                Map.of("aws:ResourceTag/gantry.dev/cluster", List.of("demo")))).allowed()).isTrue();
        assertThat(e.evaluate(new IamRequest("ec2:TerminateInstances", INSTANCE,
                Map.of("aws:ResourceTag/gantry.dev/cluster", List.of("other")))).allowed()).isFalse();
        assertThat(e.evaluate(request("ec2:TerminateInstances", INSTANCE)).allowed()).as("untagged").isFalse();
    }

    @Test
    void statementsWithUnmodelledElementsOrUnresolvedValuesAreRejected() {
        assertThatThrownBy(() -> Statement.parse(Map.of("Effect", "Allow", "Action", "s3:GetObject", "Resource", "*",
                "Principal", "*"))).hasMessageContaining("Principal");
        assertThatThrownBy(() -> Statement.parse(Map.of("Effect", "Allow", "Action", "s3:GetObject",
                "Resource", Map.of("Ref", "Bucket")))).hasMessageContaining("unresolved");
        assertThatThrownBy(() -> Statement.parse(Map.of("Effect", "Allow", "Action", "s3:GetObject",
                "Resource", "arn:aws:s3:::b/${aws:username}"))).hasMessageContaining("variables");
        assertThatThrownBy(() -> Statement.parse(Map.of("Effect", "Maybe", "Action", "s3:GetObject", "Resource", "*")))
                .hasMessageContaining("Effect");
    }
}
