package dev.gantry.infra;

import static dev.gantry.infra.TemplateQueries.json;
import static dev.gantry.infra.TemplateQueries.list;
import static dev.gantry.infra.TemplateQueries.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.deployment.ClusterManifests;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ClusterAttachTest {
    private static TemplateQueries q;
    private static Map<String, Object> props;

    @BeforeAll
    static void synth() {
        q = new TemplateQueries(SynthFixture.shared().template);
        var resources = q.properties(ClusterAttach.TYPE);
        assertThat(resources).hasSize(1);
        props = resources.values().iterator().next();
    }

    @Test
    void theCustomResourceCarriesOnlyChangeTriggersNothingTheHandlerApplies() {
        assertThat(props.keySet()).containsExactlyInAnyOrder("ServiceToken", "ManifestsDigest", "AttachVersion",
                "TokenRotation");
        assertThat(props.get("ManifestsDigest")).isEqualTo(ClusterAttach.digest(ClusterManifests.all()));
        assertThat(json(props)).doesNotContain("SecretString", "FunctionUrl", "ClusterRole");
    }

    @Test
    void theAttachFunctionGetsTheWebhookUrlTokenSecretAndFinalSweepFromItsEnvironment() {
        Map<String, Object> env = attachEnvironment();
        assertThat(json(env.get("GANTRY_WEBHOOK_URL"))).contains("GantryWebhookAliasFunctionUrl");
        assertThat(json(env.get("GANTRY_WEBHOOK_SECRET_ARN"))).contains("GantryWebhookToken");
        assertThat(json(env.get("GANTRY_FINAL_SWEEP_FUNCTION_ARN"))).contains("GantrySweepAlias");
        assertThat(env).containsEntry("GANTRY_FINAL_SWEEP_TIMEOUT_SECONDS", "50");
    }

    @Test
    void onlyTheProviderFrameworkMayInvokeTheAttachFunction() {
        List<String> invokers = q.properties("AWS::IAM::Policy").entrySet().stream()
                .filter(e -> list(map(e.getValue().get("PolicyDocument")).get("Statement")).stream()
                        .anyMatch(s -> json(map(s).get("Action")).contains("lambda:InvokeFunction")
                                && (json(map(s).get("Resource")).contains("GantryAttachFunction")
                                || json(map(s).get("Resource")).contains("GantryAttachAlias"))))
                .map(Map.Entry::getKey).toList();
        assertThat(invokers).singleElement().asString().startsWith("GantryClusterAttachProviderRoleDefaultPolicy");
        assertThat(q.properties("AWS::Lambda::Permission").values())
                .noneMatch(p -> json(p.get("FunctionName")).contains("GantryAttach")
                        || json(p.get("FunctionName")).contains("GantryClusterAttachProvider"));
    }

    @Test
    void eachControllerRoleJoinsOnlyItsOwnGroup() {
        List<Map<String, Object>> entries = q.properties("AWS::EKS::AccessEntry").values().stream()
                .filter(e -> e.containsKey("KubernetesGroups")).toList();
        assertThat(entries).hasSize(4).allSatisfy(e -> assertThat(e).doesNotContainKey("AccessPolicies"));
        for (String f : ClusterManifests.CONTROLLERS) {
            assertThat(entries).filteredOn(e -> json(e.get("PrincipalArn")).contains("Gantry" + Character.toUpperCase(
                    f.charAt(0)) + f.substring(1) + "Role")).singleElement()
                    .satisfies(e -> assertThat(e.get("KubernetesGroups")).isEqualTo(List.of("gantry:" + f)));
        }
    }

    @Test
    void eventSourcesAndTheScheduleWaitForTheAttachSoTheyStopBeforeTheFinalSweep() {
        String cr = q.properties(ClusterAttach.TYPE).keySet().iterator().next();
        var dependents = new java.util.ArrayList<Map<String, Object>>();
        dependents.addAll(q.resources("AWS::Lambda::EventSourceMapping").values());
        q.resources("AWS::Events::Rule").values().stream()
                .filter(r -> map(r.get("Properties")).containsKey("ScheduleExpression")).forEach(dependents::add);
        assertThat(dependents).hasSize(4).allSatisfy(r -> assertThat(list(r.get("DependsOn"))).contains(cr));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> attachEnvironment() {
        return q.properties("AWS::Lambda::Function").values().stream()
                .filter(p -> String.valueOf(p.get("Handler")).contains("ClusterAttachHandler"))
                .map(p -> (Map<String, Object>) map(p.get("Environment")).get("Variables")).findFirst().orElseThrow();
    }
}
