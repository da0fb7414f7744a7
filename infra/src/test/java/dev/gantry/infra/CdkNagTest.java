package dev.gantry.infra;

import static dev.gantry.infra.TemplateQueries.list;
import static dev.gantry.infra.TemplateQueries.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.cxapi.SynthesisMessage;

class CdkNagTest {

    @Test
    void awsSolutionsChecksFindNoUnsuppressedErrorsOrWarnings() {
        assertNagClean(SynthFixture.shared().stack);
    }

    @Test
    void environmentAgnosticStackIsNagCleanToo() {
        assertNagClean(SynthFixture.environmentAgnostic().stack);
    }

    @Test
    void vpcPlacedStackWithItsHttpsOnlySecurityGroupIsNagCleanToo() {
        assertNagClean(SynthFixture.with(Map.of("vpcId", "vpc-0123456789abcdef0",
                "functionSubnetIds", "subnet-0123456789abcdef0")).stack);
    }

    private static void assertNagClean(GantryStack stack) {
        List<SynthesisMessage> errors = Annotations.fromStack(stack)
                .findError("*", Match.stringLikeRegexp("AwsSolutions-.*"));
        List<SynthesisMessage> warnings = Annotations.fromStack(stack)
                .findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*"));
        assertThat(errors).extracting(m -> m.getId() + " " + firstLine(m)).isEmpty();
        assertThat(warnings).extracting(m -> m.getId() + " " + firstLine(m)).isEmpty();
    }

    @Test
    void everySuppressionCarriesAReasonAndIsPrinted() {
        List<String> lines = new ArrayList<>();
        Map<String, Object> resources = map(SynthFixture.shared().template.toJSON().get("Resources"));
        resources.forEach((id, r) -> {
            Object md = map(r).get("Metadata");
            if (md == null || map(md).get("cdk_nag") == null) {
                return;
            }
            for (Object s : list(map(map(md).get("cdk_nag")).get("rules_to_suppress"))) {
                Map<String, Object> sup = map(s);
                assertThat((String) sup.get("reason")).hasSizeGreaterThan(40);
                lines.add(id + " " + sup.get("id") + " x" + (sup.get("applies_to") == null ? 1
                        : list(sup.get("applies_to")).size()) + ": " + sup.get("reason"));
            }
        });
        System.out.println("cdk-nag suppressions (" + lines.size() + "):");
        lines.forEach(l -> System.out.println("  " + l));
        assertThat(lines).isNotEmpty();
    }

    private static String firstLine(SynthesisMessage m) {
        return String.valueOf(m.getEntry().getData()).lines().findFirst().orElse("");
    }
}
