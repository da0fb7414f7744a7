package dev.gantry.infra;

import static dev.gantry.infra.TemplateQueries.json;
import static dev.gantry.infra.TemplateQueries.list;
import static dev.gantry.infra.TemplateQueries.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Checks every IAM statement in the template against the least-privilege rules, not a hand-picked few. */
class ControllerPolicyTest {
    /** Resource types a launch only references; writes naming them need no tag condition. */
    private static final List<String> REFERENCED = List.of("image", "snapshot", "subnet", "security-group", "capacity-reservation");
    private static List<Map<String, Object>> statements;

    @BeforeAll
    static void synth() {
        statements = new ArrayList<>();
        new TemplateQueries(SynthFixture.shared().template).properties("AWS::IAM::Policy").values().forEach(p ->
                list(map(p.get("PolicyDocument")).get("Statement")).forEach(s -> statements.add(map(s))));
        assertThat(statements).isNotEmpty();
    }

    @Test
    void noEc2WriteOnAResourceGantryCreatesIsWithoutAClusterTagCondition() {
        List<Map<String, Object>> writes = statements.stream().filter(s -> actions(s).stream()
                .anyMatch(a -> a.startsWith("ec2:") && !a.startsWith("ec2:Describe"))).toList();
        assertThat(writes).hasSizeGreaterThanOrEqualTo(6);
        for (Map<String, Object> s : writes) {
            List<String> resources = list(s.get("Resource")).stream().map(TemplateQueries::json).toList();
            assertThat(resources).as("ec2 write on *: %s", s).noneMatch(r -> r.equals("\"*\""));
            boolean onlyReferenced = resources.stream().allMatch(r -> REFERENCED.stream()
                    .anyMatch(t -> r.contains(":" + t + "/*")));
            if (!onlyReferenced) {
                assertThat(json(s.get("Condition"))).as("tag condition on %s", s.get("Sid"))
                        .containsAnyOf("\"aws:RequestTag/gantry.dev/cluster\":\"demo\"",
                                "\"aws:ResourceTag/gantry.dev/cluster\":\"demo\"");
            }
        }
    }

    @Test
    void referencedOnlyGrantsAllowNothingButLaunching() {
        statements.stream().filter(s -> "AllowLaunchReferencedResources".equals(s.get("Sid"))).forEach(s ->
                assertThat(actions(s)).containsExactlyInAnyOrder("ec2:RunInstances", "ec2:CreateFleet"));
    }

    @Test
    void terminationIsConditionedOnTheResourceTag() {
        // The termination, sweep and interruption functions (an interruption's first drain step may terminate).
        assertThat(statements).filteredOn(s -> actions(s).contains("ec2:TerminateInstances")).hasSize(3)
                .allSatisfy(s -> assertThat(json(s.get("Condition")))
                        .contains("\"aws:ResourceTag/gantry.dev/cluster\":\"demo\""));
    }

    @Test
    void passRoleNamesOnlyTheNodeRoleAndOnlyForEc2() {
        List<Map<String, Object>> passRole = statements.stream()
                .filter(s -> actions(s).stream().anyMatch(a -> a.equals("iam:PassRole") || a.equals("iam:*")))
                .toList();
        assertThat(passRole).singleElement().satisfies(s -> {
            assertThat(list(s.get("Resource"))).singleElement()
                    .satisfies(r -> assertThat(json(r)).contains("GantryNodeRole").isNotEqualTo("\"*\""));
            assertThat(json(s.get("Condition")))
                    .isEqualTo("{\"StringEquals\":{\"iam:PassedToService\":\"ec2.amazonaws.com\"}}");
        });
    }

    @Test
    void clusterParameterAndPricingGrantsAreNarrow() {
        assertThat(statements).filteredOn(s -> actions(s).contains("eks:DescribeCluster"))
                .allSatisfy(s -> assertThat(json(s.get("Resource"))).contains(":cluster/demo"));
        assertThat(statements).filteredOn(s -> actions(s).contains("ssm:GetParameter"))
                .allSatisfy(s -> assertThat(list(s.get("Resource")).stream().map(TemplateQueries::json))
                        .allMatch(r -> r.contains("parameter/aws/service/eks/*")
                                || r.contains("parameter/aws/service/bottlerocket/*")));
        assertThat(statements).filteredOn(s -> json(s.get("Resource")).equals("\"*\""))
                .allSatisfy(s -> assertThat(actions(s)).allMatch(a -> a.startsWith("ec2:Describe")
                        || a.equals("pricing:GetProducts")));
    }

    @Test
    void noActionIsAServiceWildcardAndQueueAndTableGrantsNameOurResources() {
        assertThat(statements).allSatisfy(s -> assertThat(actions(s)).noneMatch(a -> a.endsWith(":*")));
        assertThat(statements).filteredOn(s -> actions(s).stream().anyMatch(a -> a.startsWith("sqs:")))
                .allSatisfy(s -> assertThat(json(s.get("Resource"))).contains("Queue").doesNotContain("\"*\""));
        assertThat(statements).filteredOn(s -> actions(s).stream().anyMatch(a -> a.startsWith("dynamodb:")))
                .allSatisfy(s -> assertThat(json(s.get("Resource"))).contains("GantryStateTable")
                        .doesNotContain("index/*"));
    }

    private static List<String> actions(Map<String, Object> s) {
        return list(s.get("Action")).stream().map(String::valueOf).toList();
    }
}
