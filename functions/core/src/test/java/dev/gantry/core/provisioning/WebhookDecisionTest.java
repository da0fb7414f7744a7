package dev.gantry.core.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class WebhookDecisionTest {
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

    private static AdmissionRequest pod(String op, String sub, String nodeName, boolean unschedulable, boolean dryRun) {
        return new AdmissionRequest("req-1", "Pod", sub, op, "default", "web", "pod-uid", nodeName, dryRun, unschedulable);
    }

    @Test
    void unboundPodCreateIsAPodCreatedHint() {
        assertThat(WebhookDecision.decide(pod("CREATE", "", "", false, false), NOW)).hasValue(
                new ProvisioningHint(ProvisioningHint.Reason.POD_CREATED, "default", "web", "pod-uid", NOW));
    }

    @Test
    void podCreatedWithANodeNameNeedsNoHint() {
        assertThat(WebhookDecision.decide(pod("CREATE", "", "node-1", false, false), NOW)).isEmpty();
    }

    @Test
    void statusUpdateMarkingThePodUnschedulableIsAHint() {
        assertThat(WebhookDecision.decide(pod("UPDATE", "status", "", true, false), NOW))
                .map(ProvisioningHint::reason).hasValue(ProvisioningHint.Reason.POD_UNSCHEDULABLE);
    }

    @Test
    void statusUpdateThatDoesNotMarkUnschedulableIsIgnored() {
        assertThat(WebhookDecision.decide(pod("UPDATE", "status", "", false, false), NOW)).isEmpty();
        assertThat(WebhookDecision.decide(pod("UPDATE", "", "", true, false), NOW)).isEmpty();
    }

    @Test
    void dryRunNeverMakesAHint() {
        assertThat(WebhookDecision.decide(pod("CREATE", "", "", false, true), NOW)).isEmpty();
    }

    @Test
    void nodeCreateAndDeleteAreHintsOtherNodeOperationsAreNot() {
        AdmissionRequest create = new AdmissionRequest("r", "Node", "", "CREATE", "", "n1", "node-uid", "", false, false);
        AdmissionRequest delete = new AdmissionRequest("r", "Node", "", "DELETE", "", "n1", "node-uid", "", false, false);
        AdmissionRequest update = new AdmissionRequest("r", "Node", "", "UPDATE", "", "n1", "node-uid", "", false, false);
        assertThat(WebhookDecision.decide(create, NOW)).map(ProvisioningHint::reason).hasValue(ProvisioningHint.Reason.NODE_CREATED);
        assertThat(WebhookDecision.decide(delete, NOW)).map(ProvisioningHint::reason).hasValue(ProvisioningHint.Reason.NODE_DELETED);
        assertThat(WebhookDecision.decide(update, NOW)).isEmpty();
    }

    @Test
    void otherKindsAreIgnored() {
        AdmissionRequest cm = new AdmissionRequest("r", "ConfigMap", "", "CREATE", "default", "c", "u", "", false, false);
        assertThat(WebhookDecision.decide(cm, NOW)).isEmpty();
    }

    @Test
    void aConfigObjectCreatedOrUpdatedIsAConfigChangedHintButNotItsStatusNorADelete() {
        for (String kind : java.util.List.of("NodePool", "EC2NodeClass", "CapacityBuffer")) {
            AdmissionRequest update = new AdmissionRequest("r", kind, "", "UPDATE", "", "default", "np-uid", "", false, false);
            assertThat(WebhookDecision.decide(update, NOW)).as(kind).hasValue(
                    new ProvisioningHint(ProvisioningHint.Reason.CONFIG_CHANGED, "", "default", "np-uid", NOW));
            assertThat(WebhookDecision.decide(new AdmissionRequest("r", kind, "status", "UPDATE", "", "default", "np-uid",
                    "", false, false), NOW)).as(kind + " status").isEmpty();
            assertThat(WebhookDecision.decide(new AdmissionRequest("r", kind, "", "DELETE", "", "default", "np-uid",
                    "", false, false), NOW)).as(kind + " delete").isEmpty();
            assertThat(WebhookDecision.decide(new AdmissionRequest("r", kind, "", "CREATE", "", "default", "np-uid",
                    "", true, false), NOW)).as(kind + " dry run").isEmpty();
        }
    }

    @Test
    void onlyTheNamedPoolsAreManagedBesideAnotherAutoscaler() {
        GantryConfig all = ProvisioningFixtures.config(ProvisioningFixtures.pool("batch", null),
                ProvisioningFixtures.pool("karpenters", null));
        assertThat(ManagedPools.of(all, java.util.Set.of("batch")).nodePools()).extracting(p -> p.name()).containsExactly("batch");
        assertThat(ManagedPools.of(all, java.util.Set.of())).isSameAs(all);
    }

    @Test
    void deduplicationIdIsTheSha256OfUidReasonAndTenSecondBucket() {
        ProvisioningHint h = new ProvisioningHint(ProvisioningHint.Reason.POD_CREATED, "default", "web", "uid-1",
                Instant.ofEpochSecond(1_748_779_205));
        // sha256("uid-1/pod-created/174877920")
        assertThat(h.deduplicationId()).hasSize(64).isEqualTo(sha256("uid-1/pod-created/174877920"));
    }

    @Test
    void hintsInOneTenSecondBucketShareADeduplicationIdAndTheNextBucketDoesNot() {
        ProvisioningHint a = hint(1_748_779_200);
        assertThat(hint(1_748_779_209).deduplicationId()).isEqualTo(a.deduplicationId());
        assertThat(hint(1_748_779_210).deduplicationId()).isNotEqualTo(a.deduplicationId());
        ProvisioningHint other = new ProvisioningHint(ProvisioningHint.Reason.POD_UNSCHEDULABLE, "default", "web", "uid-1",
                Instant.ofEpochSecond(1_748_779_200));
        assertThat(other.deduplicationId()).isNotEqualTo(a.deduplicationId());
    }

    @Test
    void webhookDeduplicationIdIsTheSha256OfReasonAndBucketOnly() {
        ProvisioningHint h = new ProvisioningHint(ProvisioningHint.Reason.POD_CREATED, "default", "web", "uid-1",
                Instant.ofEpochSecond(1_748_779_205));
        assertThat(WebhookDecision.deduplicationId(h, java.time.Duration.ofSeconds(1)))
                .isEqualTo(sha256("webhook/pod-created/1748779205"));
    }

    @Test
    void regressionAFloodOfDistinctObjectsCollapsesToOneIdPerReasonAndBucket() {
        java.time.Duration bucket = java.time.Duration.ofSeconds(1);
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (int i = 0; i < 1000; i++) {
            Instant at = Instant.ofEpochSecond(1_748_779_200).plusMillis(i % 1000);
            ids.add(WebhookDecision.deduplicationId(new ProvisioningHint(ProvisioningHint.Reason.POD_CREATED, "ns" + i,
                    "pod-" + i, "uid-" + i, at), bucket));
        }
        assertThat(ids).hasSize(1);
        ProvisioningHint next = new ProvisioningHint(ProvisioningHint.Reason.POD_CREATED, "", "x", "u",
                Instant.ofEpochSecond(1_748_779_201));
        ProvisioningHint otherReason = new ProvisioningHint(ProvisioningHint.Reason.NODE_DELETED, "", "x", "u",
                Instant.ofEpochSecond(1_748_779_200));
        assertThat(ids).doesNotContain(WebhookDecision.deduplicationId(next, bucket),
                WebhookDecision.deduplicationId(otherReason, bucket));
    }

    @Test
    void aBucketThatIsNotWholeSecondsIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WebhookDecision.deduplicationId(hint(0),
                java.time.Duration.ofMillis(1500))).isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WebhookDecision.deduplicationId(hint(0),
                java.time.Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    private static ProvisioningHint hint(long epochSecond) {
        return new ProvisioningHint(ProvisioningHint.Reason.POD_CREATED, "default", "web", "uid-1", Instant.ofEpochSecond(epochSecond));
    }

    private static String sha256(String s) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
