package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.reservation.CapacityReservation;
import dev.gantry.core.reservation.ReservationLabels;
import dev.gantry.core.reservation.ReservationLedger;
import dev.gantry.core.reservation.ReservedOfferings;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Ec2Reservations.Reservation;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Launches into a capacity reservation with the real SDK against the stub: the launch template's target and market
 * type, CreateFleet's capacity type, the slot each instance takes, and EC2's answer when the reservation is full.
 */
class Ec2ReservedLaunchTest {
    private static final Instant NOW = Instant.parse("2025-06-01T00:00:00Z");
    private static final String CR = "cr-0000000000000000a";
    private static final String BLOCK = "cr-0000000000000000b";
    private static final String SPEC_PARAM = "LaunchTemplateData.CapacityReservationSpecification.";

    private final MutableClock clock = new MutableClock(NOW);
    private AwsStub stub;
    private StubClients clients;
    private Ec2CloudProvider provider;

    @BeforeEach
    void start() {
        stub = AwsStub.start(Ec2State.withDefaults(), clock);
        clients = StubClients.of(stub);
        provider = new Ec2CloudProvider(clients.ec2(), clients.ssm(), LaunchFixtures.config(clock));
        stub.ec2().reservations().add(Reservation.targeted(CR, "m5.large", "us-east-1b", 2))
                .add(new Reservation(BLOCK, "m5.large", "us-east-1c", Ec2State.ACCOUNT, "targeted", "capacity-block",
                        false, NOW.plus(Duration.ofHours(4)), 1, 1, "active", Map.of()));
    }

    @AfterEach
    void stop() {
        clients.close();
        stub.close();
    }

    /** A claim pinned to {@code r} as the provisioner's ReservationAssignment pins it, with m5.large's offerings. */
    private LaunchRequest pinned(String token, CapacityReservation r, int count) {
        NodeClass nc = LaunchFixtures.al2023();
        InstanceType m5 = new ReservedOfferings(n -> LaunchFixtures.types(n, "m5.large"), terms -> List.of(r),
                new ReservationLedger(), clock).instanceTypes(withTerms(nc)).getFirst();
        NodePool pool = LaunchFixtures.pool();
        Requirements reqs = pool.requirements()
                .with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in("reserved"))
                .with(WellKnownLabels.INSTANCE_TYPE, ValueSet.in("m5.large"))
                .with(WellKnownLabels.ZONE, ValueSet.in(r.availabilityZone()));
        for (var e : ReservationLabels.of(r).entrySet()) {
            reqs = reqs.with(e.getKey(), ValueSet.in(e.getValue()));
        }
        Map<String, String> labels = new TreeMap<>(reqs.singleValuedLabels());
        labels.remove(WellKnownLabels.INSTANCE_TYPE);
        labels.remove(WellKnownLabels.ZONE);
        labels.putAll(pool.template().labels());
        List<Taint> taints = List.of();
        return new LaunchRequest(token, pool, nc, List.of(m5), reqs, labels, taints).batch(token, count);
    }

    private static NodeClass withTerms(NodeClass nc) {
        return new NodeClass(nc.name(), nc.group(), nc.kind(), nc.amiFamily(), nc.amiSelectorTerms(),
                nc.subnetSelectorTerms(), nc.securityGroupSelectorTerms(), nc.role(), nc.instanceProfile(), nc.userData(),
                nc.tags(), nc.blockDeviceMappings(), nc.metadataOptions(), nc.kubelet(), nc.associatePublicIPAddress(),
                nc.detailedMonitoring(), nc.convertedFrom(), List.of(NodeClass.CapacityReservationSelectorTerm.id(CR)),
                nc.annotations());
    }

    private static CapacityReservation odcr() {
        return new CapacityReservation(CR, "m5.large", "us-east-1b", Ec2State.ACCOUNT, "targeted", "default", false, null, 2);
    }

    private static CapacityReservation block() {
        return new CapacityReservation(BLOCK, "m5.large", "us-east-1c", Ec2State.ACCOUNT, "targeted", "capacity-block",
                false, NOW.plus(Duration.ofHours(4)), 1);
    }

    /**
     * aws pkg/providers/launchtemplate/types.go (CapacityReservationSpecification: capacity-reservations-only with the
     * target) and pkg/providers/instance/types.go defaultTargetCapacityType (an ODCR launches as on-demand).
     */
    @Test
    void aReservedLaunchTargetsItsReservationThroughItsLaunchTemplateAndTakesASlot() {
        LaunchResult result = provider.launch(pinned("general-res1", odcr(), 1));

        assertThat(stub.lastRequest("CreateLaunchTemplate").params())
                .containsEntry(SPEC_PARAM + "CapacityReservationPreference", "capacity-reservations-only")
                .containsEntry(SPEC_PARAM + "CapacityReservationTarget.CapacityReservationId", CR)
                .doesNotContainKey("LaunchTemplateData.InstanceMarketOptions.MarketType");
        assertThat(stub.lastRequest("CreateFleet").params())
                .containsEntry("TargetCapacitySpecification.DefaultTargetCapacityType", "on-demand")
                .containsEntry("LaunchTemplateConfigs.1.Overrides.1.InstanceType", "m5.large")
                .containsEntry("LaunchTemplateConfigs.1.Overrides.1.AvailabilityZone", "us-east-1b");
        String userData = new String(java.util.Base64.getDecoder().decode(
                stub.lastRequest("CreateLaunchTemplate").param("LaunchTemplateData.UserData")), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(userData).as("the labels the node registers with (aws pkg/apis/v1/labels.go)")
                .contains("karpenter.sh/capacity-type=reserved", ReservationLabels.ID + "=" + CR,
                        ReservationLabels.TYPE + "=default", ReservationLabels.INTERRUPTIBLE + "=false");
        assertThat(result.instance().capacityType()).isEqualTo("reserved");
        assertThat(result.instance().zone()).isEqualTo("us-east-1b");
        assertThat(stub.ec2().reservations().get(CR).available()).isEqualTo(1);
    }

    /** aws launchtemplate/types.go (MarketType capacity-block) and instance/types.go (DefaultTargetCapacityType capacity-block). */
    @Test
    void aCapacityBlockLaunchIsMarketTypeCapacityBlockWithoutOnDemandOptions() {
        provider.launch(pinned("general-blk1", block(), 1));

        assertThat(stub.lastRequest("CreateLaunchTemplate").params())
                .containsEntry("LaunchTemplateData.InstanceMarketOptions.MarketType", "capacity-block")
                .containsEntry(SPEC_PARAM + "CapacityReservationTarget.CapacityReservationId", BLOCK);
        assertThat(stub.lastRequest("CreateFleet").params())
                .containsEntry("TargetCapacitySpecification.DefaultTargetCapacityType", "capacity-block")
                .doesNotContainKey("OnDemandOptions.AllocationStrategy");
        assertThat(stub.ec2().reservations().get(BLOCK).available()).isZero();
    }

    /**
     * aws pkg/errors/errors.go (ReservationCapacityExceeded is unfulfillable capacity) and instance.go
     * updateUnavailableOfferingsCache (a reserved launch's failure marks its reservation unavailable): the (type, zone,
     * reserved) offering is reported unavailable, so the claim's pods are planned again off the reservation.
     */
    @Test
    void aLaunchIntoAFullReservationIsReservationCapacityExceededAndMarksItsReservedOfferingUnavailable() {
        provider.launch(pinned("general-res2", odcr(), 2));

        assertThatThrownBy(() -> provider.launch(pinned("general-res3", odcr(), 1)))
                .isInstanceOfSatisfying(InsufficientCapacity.class, e -> {
                    assertThat(e.code()).isEqualTo("ReservationCapacityExceeded");
                    assertThat(e.offerings()).containsExactly(new OfferingKey("m5.large", "us-east-1b", "reserved"));
                });
        assertThat(stub.ec2().instances()).hasSize(2);
    }

    /**
     * aws pkg/providers/instance/types.go capacityTypeFromInstance: an instance in the reservation it targeted
     * (capacity-reservations-only) is listed reserved; once the reservation ends and EC2 moves it out, on-demand (which
     * the sweep's ReservationFallbackStep turns into node labels).
     */
    @Test
    void anInstanceIsListedReservedWhileInItsReservationAndOnDemandOnceItLeaves() {
        String id = provider.launch(pinned("general-res5", odcr(), 1)).instance().instanceId();
        assertThat(provider.describe(id)).get().extracting(i -> i.capacityType()).isEqualTo("reserved");

        stub.ec2().reservations().end(CR, "expired");

        assertThat(provider.describe(id)).get().extracting(i -> i.capacityType()).isEqualTo("on-demand");
    }

    /** Gantry's own (the stub, as EC2): a terminated instance frees its slot, once however often it is terminated. */
    @Test
    void terminatingAReservedInstanceFreesItsSlotOnce() {
        String id = provider.launch(pinned("general-res4", odcr(), 1)).instance().instanceId();

        try (StubClients termination = StubClients.of(stub, "termination")) {
            Ec2CloudProvider terminator = new Ec2CloudProvider(termination.ec2(), termination.ssm(), LaunchFixtures.config(clock));
            terminator.terminate(List.of(id));
            terminator.terminate(List.of(id));
        }

        assertThat(stub.ec2().reservations().get(CR).available()).isEqualTo(2);
    }

    /**
     * Gantry's own: the launch template's name hashes its content, and a template that targets no reservation keeps
     * the name it had before reservations were added to the spec (pinned: computed by the spec of f2fa8e1), so no
     * existing template is renamed and recreated by this change.
     */
    @Test
    void aTemplateWithoutAReservationKeepsItsName() {
        LaunchTemplateSpec spec = new LaunchTemplateSpec("AL2023", "ami-0123456789abcdef0", "KarpenterNodeInstanceProfile",
                List.of("sg-0123456789abcdef0"), NodeClass.MetadataOptions.DEFAULT, List.of(), "#!/bin/bash\necho hi\n",
                false, null, Map.of("gantry.dev/cluster", "c1", "gantry.dev/nodepool", "general"));

        assertThat(spec.name("c1")).isEqualTo("gantry/c1/3311cca0bfc16d71509d");
        assertThat(new LaunchTemplateSpec(spec.amiFamily(), spec.imageId(), spec.instanceProfile(), spec.securityGroupIds(),
                spec.metadataOptions(), spec.blockDeviceMappings(), spec.userData(), false, null, spec.tags(),
                new ReservationTarget(CR, "default", false)).name("c1")).isNotEqualTo(spec.name("c1"));
    }
}
