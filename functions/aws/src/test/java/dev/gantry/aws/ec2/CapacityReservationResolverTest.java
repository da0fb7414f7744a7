package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.model.NodeClass.CapacityReservationSelectorTerm;
import dev.gantry.core.reservation.CapacityReservation;
import dev.gantry.core.status.NodeClassStatus;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Ec2Reservations.Reservation;
import dev.gantry.testing.Ec2Responses;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.MutableClock;
import dev.gantry.testing.RecordedRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * capacityReservationSelectorTerms resolved through DescribeCapacityReservations as Karpenter v1.14.1 does (aws
 * {@code pkg/providers/capacityreservation/types.go} QueriesFromSelectorTerms and DescribeCapacityReservationsInput,
 * {@code provider.go} List and filterReservations), against the stub, signed as the sweep (the NodeClass status) and
 * the provisioner (launches).
 */
class CapacityReservationResolverTest {
    private static final Instant NOW = Instant.parse("2025-06-01T00:00:00Z");
    private final MutableClock clock = new MutableClock(NOW);
    private AwsStub stub;
    private StubClients sweep;
    private StubClients provisioner;

    @BeforeEach
    void start() {
        stub = AwsStub.start(Ec2State.withDefaults(), clock);
        sweep = StubClients.of(stub, "sweep");
        provisioner = StubClients.of(stub, "provisioner");
        stub.ec2().reservations()
                .add(Reservation.targeted("cr-0000000000000000a", "m5.large", "us-east-1a", 3))
                .add(new Reservation("cr-0000000000000000b", "m5.xlarge", "us-east-1b", Ec2State.ACCOUNT, "open", "default",
                        false, null, 2, 1, "active", Map.of("team", "ml")))
                .add(new Reservation("cr-0000000000000000c", "m5.large", "us-east-1c", "210987654321", "targeted",
                        "capacity-block", false, NOW.plus(Duration.ofHours(2)), 4, 4, "active", Map.of("team", "ml")))
                .add(new Reservation("cr-0000000000000000d", "c5.large", "us-east-1a", Ec2State.ACCOUNT, "targeted",
                        "default", true, null, 1, 1, "active", Map.of("team", "web")))
                .add(Reservation.targeted("cr-0000000000000000e", "m5.large", "us-east-1a", 5).withState("cancelled"));
    }

    @AfterEach
    void stop() {
        sweep.close();
        provisioner.close();
        stub.close();
    }

    private CapacityReservationResolver resolver(StubClients clients) {
        return new CapacityReservationResolver(clients.ec2(), clock);
    }

    private static List<String> ids(List<CapacityReservation> rs) {
        return rs.stream().map(CapacityReservation::id).toList();
    }

    /** aws types.go: a term by id sends the id and state=active, without MaxResults (EC2 refuses the combination). */
    @Test
    void aTermByIdAsksForThatIdAloneAndOnlyActiveOnes() {
        List<CapacityReservation> rs = resolver(provisioner).select(List.of(CapacityReservationSelectorTerm.id("cr-0000000000000000a")));

        assertThat(rs).singleElement().satisfies(r -> {
            assertThat(r.instanceType()).isEqualTo("m5.large");
            assertThat(r.availabilityZone()).isEqualTo("us-east-1a");
            assertThat(r.ownerId()).isEqualTo(Ec2State.ACCOUNT);
            assertThat(r.instanceMatchCriteria()).isEqualTo("targeted");
            assertThat(r.reservationType()).isEqualTo("default");
            assertThat(r.availableInstanceCount()).isEqualTo(3);
            assertThat(r.endTime()).isNull();
        });
        RecordedRequest q = stub.lastRequest("DescribeCapacityReservations");
        assertThat(q.values("CapacityReservationId")).containsExactly("cr-0000000000000000a");
        assertThat(q.param("MaxResults")).isNull();
        assertThat(q.filters()).containsExactly(Map.entry("state", List.of("active")));
    }

    /** aws types.go: tags (with '*' as tag-key), ownerID and instanceMatchCriteria are ANDed filters of one call. */
    @Test
    void aTermByTagsOwnerAndMatchCriteriaIsOneFilteredPagedCall() {
        List<CapacityReservation> rs = resolver(sweep).select(List.of(new CapacityReservationSelectorTerm(null,
                Ec2State.ACCOUNT, Map.of("team", "*"), "targeted")));

        assertThat(ids(rs)).containsExactly("cr-0000000000000000d");
        RecordedRequest q = stub.lastRequest("DescribeCapacityReservations");
        assertThat(q.param("MaxResults")).isEqualTo("1000");
        assertThat(q.filters()).containsOnly(Map.entry("state", List.of("active")),
                Map.entry("owner-id", List.of(Ec2State.ACCOUNT)), Map.entry("tag-key", List.of("team")),
                Map.entry("instance-match-criteria", List.of("targeted")));
    }

    /** aws ec2nodeclass.go: "Each term is ORed together"; provider.go deduplicates by id and sorts (nodeclass controller). */
    @Test
    void termsAreOredAndTheirAnswersDeduplicatedAndOrderedById() {
        List<CapacityReservation> rs = resolver(sweep).select(List.of(
                new CapacityReservationSelectorTerm(null, null, Map.of("team", "ml"), null),
                CapacityReservationSelectorTerm.id("cr-0000000000000000b"),
                CapacityReservationSelectorTerm.id("cr-0000000000000000a")));

        assertThat(ids(rs)).containsExactly("cr-0000000000000000a", "cr-0000000000000000b", "cr-0000000000000000c");
        assertThat(rs.get(2).reservationType()).isEqualTo("capacity-block");
        assertThat(rs.get(2).ownerId()).isEqualTo("210987654321");
    }

    /** docs tasks/odcrs.md: Karpenter never selects open reservations implicitly; no terms, no call and nothing. */
    @Test
    void noTermsSelectNothingNotEvenAnOpenReservation() {
        assertThat(resolver(sweep).select(List.of())).isEmpty();
        assertThat(stub.requests("DescribeCapacityReservations")).isEmpty();
    }

    /** aws provider.go: a NotFound for an id query ends it with nothing (the reservation was cancelled or never was). */
    @Test
    void anUnknownIdSelectsNothingWhileOtherFailuresAreErrors() {
        assertThat(resolver(sweep).select(List.of(CapacityReservationSelectorTerm.id("cr-0000000000000000f")))).isEmpty();

        stub.on("DescribeCapacityReservations", q -> Ec2Responses.error("UnauthorizedOperation", "You are not authorized."));
        assertThatThrownBy(() -> resolver(sweep).select(List.of(new CapacityReservationSelectorTerm(null, null,
                Map.of("team", "ml"), null)))).isInstanceOf(CloudException.class).hasMessageContaining("UnauthorizedOperation");
    }

    /** aws provider.go filterReservations: a reservation whose end date has passed is dropped though EC2 lists it. */
    @Test
    void aReservationPastItsEndIsDropped() {
        CapacityReservationResolver resolver = resolver(sweep);
        CapacityReservationSelectorTerm ml = new CapacityReservationSelectorTerm(null, null, Map.of("team", "ml"), null);
        assertThat(ids(resolver.select(List.of(ml)))).contains("cr-0000000000000000c");

        clock.advance(Duration.ofHours(2));

        assertThat(ids(resolver.select(List.of(ml)))).containsExactly("cr-0000000000000000b");
    }

    /** The paginator follows nextToken: more reservations than one page are all found. */
    @Test
    void followsEveryPage() {
        for (int i = 0; i < 1005; i++) {
            stub.ec2().reservations().add(new Reservation(String.format("cr-1%016x", i), "m5.large", "us-east-1a",
                    Ec2State.ACCOUNT, "targeted", "default", false, null, 1, 1, "active", Map.of("bulk", "yes")));
        }
        List<CapacityReservation> rs = resolver(sweep).select(List.of(new CapacityReservationSelectorTerm(null, null,
                Map.of("bulk", "yes"), null)));

        assertThat(rs).hasSize(1005);
        assertThat(stub.requests("DescribeCapacityReservations")).hasSize(2);
    }

    /** The stub is as strict as EC2: MaxResults with ids, a malformed id and an unknown id are errors. */
    @Test
    void theStubRefusesWhatEc2Refuses() {
        var ec2 = sweep.ec2();
        assertThat(code(() -> ec2.describeCapacityReservations(r -> r.capacityReservationIds("cr-0000000000000000a").maxResults(10))))
                .isEqualTo("InvalidParameterCombination");
        assertThat(code(() -> ec2.describeCapacityReservations(r -> r.capacityReservationIds("reservation-1"))))
                .isEqualTo("InvalidCapacityReservationId.Malformed");
        assertThat(code(() -> ec2.describeCapacityReservations(r -> r.capacityReservationIds("cr-0000000000000000f"))))
                .isEqualTo("InvalidCapacityReservationId.NotFound");
        assertThat(code(() -> ec2.describeCapacityReservations(r -> r.maxResults(1001)))).isEqualTo("InvalidParameterValue");
    }

    private static String code(Runnable call) {
        try {
            call.run();
            return "no error";
        } catch (software.amazon.awssdk.awscore.exception.AwsServiceException e) {
            return e.awsErrorDetails().errorCode();
        }
    }

    /**
     * aws ec2nodeclass_status.go CapacityReservationFromEC2 and nodeclass/capacityreservation.go: the NodeClass status
     * lists the selected reservations with AZ, type, owner, match criteria and state; a Capacity Block is
     * {@code expiring} from 40 minutes before its end.
     */
    @Test
    void theNodeClassStatusListsTheSelectedReservationsWithTheirState() {
        Ec2CloudProvider provider = new Ec2CloudProvider(sweep.ec2(), sweep.ssm(), LaunchFixtures.config(clock));
        var base = LaunchFixtures.al2023();
        var nodeClass = new dev.gantry.core.model.NodeClass(base.name(), base.group(), base.kind(), base.amiFamily(),
                base.amiSelectorTerms(), base.subnetSelectorTerms(), base.securityGroupSelectorTerms(), base.role(),
                base.instanceProfile(), base.userData(), base.tags(), base.blockDeviceMappings(), base.metadataOptions(),
                base.kubelet(), base.associatePublicIPAddress(), base.detailedMonitoring(), base.convertedFrom(),
                List.of(new CapacityReservationSelectorTerm(null, null, Map.of("team", "ml"), null)));

        List<NodeClassStatus.Reservation> early = provider.status(nodeClass).capacityReservations();
        clock.advance(Duration.ofMinutes(80));
        List<NodeClassStatus.Reservation> late = provider.status(nodeClass).capacityReservations();

        assertThat(early).extracting(NodeClassStatus.Reservation::id, NodeClassStatus.Reservation::state)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("cr-0000000000000000b", "active"),
                        org.assertj.core.groups.Tuple.tuple("cr-0000000000000000c", "active"));
        assertThat(early.get(1)).satisfies(r -> {
            assertThat(r.availabilityZone()).isEqualTo("us-east-1c");
            assertThat(r.ownerID()).isEqualTo("210987654321");
            assertThat(r.reservationType()).isEqualTo("capacity-block");
            assertThat(r.instanceMatchCriteria()).isEqualTo("targeted");
            assertThat(r.endTime()).isEqualTo(NOW.plus(Duration.ofHours(2)));
        });
        assertThat(late).filteredOn(r -> r.id().equals("cr-0000000000000000c")).singleElement()
                .extracting(NodeClassStatus.Reservation::state).isEqualTo("expiring");
        assertThat(new ArrayList<>(late)).filteredOn(r -> r.id().equals("cr-0000000000000000b")).singleElement()
                .extracting(NodeClassStatus.Reservation::state).isEqualTo("active");
    }
}
