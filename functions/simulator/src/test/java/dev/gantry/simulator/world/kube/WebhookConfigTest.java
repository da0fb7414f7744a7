package dev.gantry.simulator.world.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulated webhook's hook for configuration writes: the real handler's verdict, and its hint when admitted. */
class WebhookConfigTest {
    private final List<String> sent = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();
    private final Webhook webhook = new Webhook(true, "sim", (body, group, dedup, delay) -> sent.add(body),
            Duration.ofSeconds(1), Clock.fixed(Instant.parse("2025-06-01T12:00:00Z"), ZoneOffset.UTC), errors::add);

    private static String pool(String operator) {
        return """
                {"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"web","uid":"np-1"},
                 "spec":{"template":{"spec":{"nodeClassRef":{"group":"karpenter.k8s.aws","kind":"EC2NodeClass","name":"default"},
                   "requirements":[{"key":"karpenter.sh/capacity-type","operator":"%s","values":["spot"]}]}}}}"""
                .formatted(operator);
    }

    @Test
    void anAdmittedNodePoolChangeSendsAConfigChangedHint() {
        assertThat(webhook.configWritten("UPDATE", pool("In"))).isEqualTo(Webhook.Admission.ALLOWED);
        assertThat(sent).singleElement().asString().contains("\"reason\":\"config-changed\"");
        assertThat(errors).isEmpty();
    }

    @Test
    void aBadNodePoolIsRefusedWithTheWebhooksMessageAndSendsNothing() {
        Webhook.Admission a = webhook.configWritten("CREATE", pool("in"));

        assertThat(a.allowed()).isFalse();
        assertThat(a.message()).startsWith("Gantry refused NodePool/web: spec.template.spec.requirements[0].operator:")
                .endsWith("did you mean \"In\"?");
        assertThat(sent).isEmpty();
    }

    @Test
    void aWebhookSwitchedOffAdmitsEverything() {
        Webhook off = new Webhook(false, "sim", (b, g, d, l) -> sent.add(b), Duration.ofSeconds(1), Clock.systemUTC(), errors::add);

        assertThat(off.configWritten("CREATE", pool("in")).allowed()).isTrue();
        assertThat(sent).isEmpty();
    }
}
