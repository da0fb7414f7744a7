package dev.gantry.core.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.provisioning.NodeClassGate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The provisioner's gate reads the same four checks as the NodeClass's conditions (aws/karpenter-provider-aws
 * {@code pkg/apis/v1/ec2nodeclass_status.go}); what a failed lookup means for it is Gantry's own: only a refusal for good
 * closes the pool, a throttle or an unknown failure leaves it to the launch.
 */
class NodeClassReadinessTest {
    private static final NodeClass NC = new NodeClass("default", null, "EC2NodeClass", "AL2023", List.of(), List.of(), List.of(),
            "role", null, null, Map.of(), List.of(), null, null, null, null, null, List.of(), Map.of());
    private static final NodeClassStatus READY = new NodeClassStatus(List.of(new NodeClassStatus.Subnet("subnet-1", "z", null)),
            List.of(new NodeClassStatus.SecurityGroup("sg-1", null)), List.of(new NodeClassStatus.Ami("ami-1", null, List.of())),
            "profile", List.of());

    @Test
    void aClassThatResolvesAllFourIsOpen() {
        assertThat(NodeClassReadiness.gate(nc -> READY).notReady(NC)).isEmpty();
    }

    @Test
    void aClassWithNoAmiIsClosedWithTheConditionsMessage() {
        NodeClassStatus noAmi = new NodeClassStatus(READY.subnets(), READY.securityGroups(), List.of(), "profile", List.of());
        assertThat(NodeClassReadiness.gate(nc -> noAmi).notReady(NC)).contains("no AMI matches");
        assertThat(NodeClassReadiness.conditions(noAmi, java.time.Instant.EPOCH))
                .filteredOn(c -> c.type().equals("AMIsReady")).singleElement()
                .satisfies(c -> assertThat(c.message()).isEqualTo("no AMI matches"));
    }

    /**
     * Karpenter's PlacementGroupReady: True for a class without a selector or whose group is listed; False, in the
     * resolution's words, when the group is not, and the class's pools are left out (they failed each launch instead).
     */
    @Test
    void aPlacementGroupEc2DoesNotListMakesTheClassNotReady() {
        java.time.Instant now = java.time.Instant.parse("2025-06-01T00:00:00Z");
        assertThat(NodeClassReadiness.conditions(READY, now)).filteredOn(c -> c.type().equals("PlacementGroupReady"))
                .singleElement().satisfies(c -> assertThat(c.status()).isEqualTo(Condition.Status.True));
        NodeClassStatus gone = READY.withConditions(List.of(NodeClassReadiness.placementGroupNotFound("training")));
        assertThat(NodeClassReadiness.conditions(gone, now)).filteredOn(c -> c.type().equals("PlacementGroupReady"))
                .singleElement().satisfies(c -> {
                    assertThat(c.status()).isEqualTo(Condition.Status.False);
                    assertThat(c.reason()).isEqualTo("PlacementGroupNotFound");
                    assertThat(c.message()).isEqualTo("Placement group \"training\" not found");
                    assertThat(c.lastTransitionTime()).isEqualTo(now);
                });
        assertThat(NodeClassReadiness.gate(nc -> gone).notReady(NC)).contains("Placement group \"training\" not found");
    }

    @Test
    void aResolutionSayingHowACheckPassedIsWrittenAsItSaysButNeverOverAFailure() {
        Condition how = new Condition("InstanceProfileReady", Condition.Status.True, "DeploymentNodeRole",
                "role TeamNodeRole is not a node role of this deployment", java.time.Instant.EPOCH);
        NodeClassStatus substituted = READY.withConditions(List.of(how));
        java.time.Instant now = java.time.Instant.parse("2025-06-01T00:00:00Z");

        assertThat(NodeClassReadiness.conditions(substituted, now))
                .filteredOn(c -> c.type().equals("InstanceProfileReady")).singleElement().satisfies(c -> {
                    assertThat(c.status()).isEqualTo(Condition.Status.True);
                    assertThat(c.reason()).isEqualTo("DeploymentNodeRole");
                    assertThat(c.message()).isEqualTo(how.message());
                    assertThat(c.lastTransitionTime()).isEqualTo(now);
                });
        assertThat(NodeClassReadiness.conditions(substituted, now)).filteredOn(c -> !c.type().equals("InstanceProfileReady"))
                .allSatisfy(c -> assertThat(c.reason()).isEqualTo(c.type()));
        NodeClassStatus noProfile = new NodeClassStatus(READY.subnets(), READY.securityGroups(), READY.amis(), null,
                List.of(how));
        assertThat(NodeClassReadiness.conditions(noProfile, now))
                .filteredOn(c -> c.type().equals("InstanceProfileReady")).singleElement()
                .satisfies(c -> assertThat(c.status()).isEqualTo(Condition.Status.False));
    }

    /** Karpenter v1.14's {@code ValidationSucceeded} on an EC2NodeClass (aws {@code pkg/controllers/nodeclass/validation.go}). */
    @Test
    void validationFailsWithTheReadersMessagesWaitsOnTheChecksAndSucceedsWhenTheyAreTrue() {
        java.time.Instant now = java.time.Instant.parse("2025-06-01T00:00:00Z");
        List<Condition> ready = NodeClassReadiness.conditions(READY, now);
        List<Condition> noAmi = NodeClassReadiness.conditions(new NodeClassStatus(READY.subnets(), READY.securityGroups(),
                List.of(), "profile", List.of()), now);
        List<Condition> unresolved = NodeClassReadiness.notResolved("could not resolve: Throttling", now);

        assertThat(NodeClassReadiness.validation(List.of("spec.kubelet.maxPods: -1 is not >= 0", "spec.tags: bad"), ready, now))
                .isEqualTo(Condition.isFalse("ValidationSucceeded", "ValidationFailed",
                        "spec.kubelet.maxPods: -1 is not >= 0; spec.tags: bad", now));
        assertThat(NodeClassReadiness.validation(List.of(), noAmi, now)).satisfies(c -> {
            assertThat(c.status()).isEqualTo(Condition.Status.False);
            assertThat(c.reason()).isEqualTo("DependenciesNotReady");
            assertThat(c.message()).isEqualTo("Awaiting AMI, Instance Profile, Security Group, and Subnet resolution");
        });
        assertThat(NodeClassReadiness.validation(List.of(), unresolved, now).status()).isEqualTo(Condition.Status.Unknown);
        assertThat(NodeClassReadiness.validation(List.of(), ready, now))
                .isEqualTo(Condition.isTrue("ValidationSucceeded", "ValidationSucceeded", now));
        assertThat(unresolved).hasSize(5).allSatisfy(c -> {
            assertThat(c.status()).isEqualTo(Condition.Status.Unknown);
            assertThat(c.reason()).isEqualTo("NotResolved");
            assertThat(c.message()).isEqualTo("could not resolve: Throttling");
        });
    }

    @Test
    void aRefusalForGoodClosesButAThrottleOrAnUnknownFailureDoesNot() {
        NodeClassGate refused = NodeClassReadiness.gate(nc -> {
            throw new CloudException("AmiNotFound", "no AMI matches amiSelectorTerms", false);
        });
        NodeClassGate throttled = NodeClassReadiness.gate(nc -> {
            throw new CloudException("RequestLimitExceeded", "slow down", true);
        });
        NodeClassGate broken = NodeClassReadiness.gate(nc -> {
            throw new IllegalStateException("socket closed");
        });
        assertThat(refused.notReady(NC)).hasValueSatisfying(m -> assertThat(m).contains("AmiNotFound"));
        assertThat(throttled.notReady(NC)).isEmpty();
        assertThat(broken.notReady(NC)).isEmpty();
    }
}
