package dev.gantry.simulator;

import dev.gantry.simulator.faults.FaultPlan;
import dev.gantry.simulator.faults.Faults;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.runtime.LambdaRuntime;
import dev.gantry.simulator.runtime.Latency;
import dev.gantry.simulator.scenario.ScenarioReader;
import dev.gantry.simulator.world.aws.SimulatedCloud;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.Requirements;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** EC2 as the real adapter presents it to the core: ClientToken idempotency, Describe lag, SDK retries, ICE. */
class SimulatedCloudTest {
    private final Simulation sim = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/quickstart.yaml")),
            v -> { }, Progress.none());
    private final NodePool pool = sim.pools.values().iterator().next();
    private final NodeClass nodeClass = sim.config.nodeClassOf(pool).orElseThrow();
    private final List<InstanceType> types = sim.catalog.instanceTypes(nodeClass);

    private SimulatedCloud cloud(FaultPlan plan) {
        SimulatedCloud c = new SimulatedCloud("sim", "ap-northeast-2", sim.loop, 1, sim.observers);
        Faults f = new Faults(plan, 1);
        c.runtime(new LambdaRuntime(sim.loop, Latency.none()), f);
        return c;
    }

    private LaunchRequest request(String claim, List<InstanceType> options) {
        return new LaunchRequest(claim, pool, nodeClass, options, Requirements.NONE, Map.of(), List.of());
    }

    private static FaultPlan describeLag(Duration lag) {
        return FaultPlan.NONE.withEc2(FaultPlan.Ec2.NONE.withDescribeLag(lag));
    }

    @Test
    void aClientTokenReusedWithTheSameParametersReturnsTheFirstInstance() {
        SimulatedCloud c = cloud(FaultPlan.NONE);
        LaunchResult first = c.launch(request("claim-a", types.subList(0, 3)));
        LaunchResult again = c.launch(request("claim-a", types.subList(0, 3)));
        assertThat(again.instance().instanceId()).isEqualTo(first.instance().instanceId());
        assertThat(c.instances()).hasSize(1);
        assertThat(c.tokenMismatches()).isZero();
    }

    @Test
    void aClientTokenReusedWithOtherParametersFindsTheInstanceByTagAsTheAdapterDoes() {
        SimulatedCloud c = cloud(FaultPlan.NONE);
        LaunchResult first = c.launch(request("claim-a", types.subList(0, 3)));
        LaunchResult again = c.launch(request("claim-a", types.subList(0, 2)));
        assertThat(again.instance().instanceId()).isEqualTo(first.instance().instanceId());
        assertThat(c.tokenMismatches()).isEqualTo(1);
    }

    @Test
    void aReusedTokenWhoseInstanceDescribeDoesNotShowYetFailsWithIdempotentParameterMismatch() {
        SimulatedCloud c = cloud(describeLag(Duration.ofSeconds(30)));
        c.launch(request("claim-a", types.subList(0, 3)));
        assertThatThrownBy(() -> c.launch(request("claim-a", types.subList(0, 2))))
                .isInstanceOfSatisfying(CloudException.class, e -> {
                    assertThat(e.code()).isEqualTo("IdempotentParameterMismatch");
                    assertThat(e.retryable()).isFalse();
                });
    }

    @Test
    void aReplayOfTheRecordedParametersIsTheSameFleetThoughTheRequestWouldPrepareOthersNow() {
        SimulatedCloud c = cloud(FaultPlan.NONE);
        LaunchParameters sent = c.prepare(request("claim-a", types.subList(0, 3)));
        LaunchResult first = c.launch(request("claim-a", types.subList(0, 3)), sent);

        LaunchResult again = c.launch(request("claim-a", types.subList(0, 2)), sent);

        assertThat(c.prepare(request("claim-a", types.subList(0, 2)))).isNotEqualTo(sent);
        assertThat(again.instance().instanceId()).isEqualTo(first.instance().instanceId());
        assertThat(c.tokenMismatches()).isZero();
    }

    @Test
    void aClientTokenReusedWithAnotherSubnetOrLaunchTemplateIsAMismatchAsAtEc2() {
        SimulatedCloud c = cloud(FaultPlan.NONE);
        LaunchParameters sent = c.prepare(request("claim-a", types.subList(0, 3)));
        c.launch(request("claim-a", types.subList(0, 3)), sent);
        LaunchParameters.Template t = sent.templates().getFirst();
        List<LaunchParameters.Override> moved = t.overrides().stream()
                .map(o -> new LaunchParameters.Override(o.instanceType(), o.zone(), o.subnetId() + "-new")).toList();

        c.launch(request("claim-a", types.subList(0, 3)), new LaunchParameters(sent.capacityType(),
                List.of(new LaunchParameters.Template(t.name(), t.imageId(), t.maxPods(), moved)), sent.tags()));
        c.launch(request("claim-a", types.subList(0, 3)), new LaunchParameters(sent.capacityType(),
                List.of(new LaunchParameters.Template(t.name() + "-v2", t.imageId(), t.maxPods(), t.overrides())), sent.tags()));

        assertThat(c.tokenMismatches()).isEqualTo(2);
        assertThat(c.instances()).hasSize(1);
    }

    @Test
    void aClientTokenLongerThanEc2sSixtyFourCharactersIsRefusedForGood() {
        SimulatedCloud c = cloud(FaultPlan.NONE);
        assertThatThrownBy(() -> c.launch(request("c".repeat(65), types.subList(0, 1))))
                .isInstanceOfSatisfying(CloudException.class, e -> {
                    assertThat(e.code()).isEqualTo("InvalidParameterValue");
                    assertThat(e.retryable()).isFalse();
                });
        assertThat(c.instances()).isEmpty();
    }

    @Test
    void aBurstOfOurOwnTerminationsDrainsTheTerminateInstancesBucketWithNoNeighbourAround() {
        SimulatedCloud c = cloud(FaultPlan.NONE);
        for (int i = 0; i < 100; i++) {
            c.terminate(List.of("i-unknown" + i)); // TerminateInstances: 100 tokens, 5 a second
        }
        assertThatThrownBy(() -> c.terminate(List.of("i-one-too-many")))
                .isInstanceOfSatisfying(CloudException.class, e -> {
                    assertThat(e.code()).isEqualTo("RequestLimitExceeded");
                    assertThat(e.retryable()).isTrue();
                });
        sim.loop.runUntil(sim.clock.instant().plusSeconds(1), step -> { });
        c.terminate(List.of("i-after-a-refill"));
    }

    @Test
    void aJustLaunchedInstanceIsMissingFromDescribeInstancesForTheLag() {
        SimulatedCloud c = cloud(describeLag(Duration.ofSeconds(5)));
        String id = c.launch(request("claim-a", types.subList(0, 1))).instance().instanceId();
        assertThat(c.listInstances()).isEmpty();
        assertThat(c.describe(id)).isEmpty();
        sim.loop.runUntil(sim.clock.instant().plusSeconds(5), s -> { });
        assertThat(c.listInstances()).extracting(i -> i.instanceId()).containsExactly(id);
        assertThat(c.describe(id)).isPresent();
    }

    @Test
    void throttlingSurfacesAsRequestLimitExceededOnlyAfterTheSdksThreeAttempts() {
        FaultPlan always = FaultPlan.NONE.withEc2(FaultPlan.Ec2.NONE.withThrottle(1));
        SimulatedCloud c = new SimulatedCloud("sim", "ap-northeast-2", sim.loop, 1, sim.observers);
        Faults f = new Faults(always, 1);
        c.runtime(new LambdaRuntime(sim.loop, Latency.none()), f);
        assertThatThrownBy(c::listInstances).isInstanceOfSatisfying(CloudException.class, e -> {
            assertThat(e.code()).isEqualTo("RequestLimitExceeded");
            assertThat(e.retryable()).isTrue();
        });
        assertThat(f.injected()).containsEntry("ec2Throttle", 3L);
    }

    @Test
    void anIceFaultFailsEveryOfferingOfTheFleet() {
        FaultPlan ice = FaultPlan.NONE.withEc2(FaultPlan.Ec2.NONE.withIce(1));
        SimulatedCloud c = cloud(ice);
        assertThatThrownBy(() -> c.launch(request("claim-a", types.subList(0, 2))))
                .isInstanceOfSatisfying(InsufficientCapacity.class, e -> {
                    assertThat(e.code()).isEqualTo("InsufficientInstanceCapacity");
                    assertThat(e.offerings()).extracting(o -> o.instanceType()).containsOnly(types.get(0).name(), types.get(1).name());
                    assertThat(e.offerings()).hasSizeGreaterThan(2);
                });
        assertThat(c.instances()).isEmpty();
    }

    @Test
    void anIceFaultNamesOnlyTheCapacityTypeTheFleetAskedForSoOnDemandStaysOpenForTheReplan() {
        FaultPlan ice = FaultPlan.NONE.withEc2(FaultPlan.Ec2.NONE.withIce(1));
        SimulatedCloud c = cloud(ice);
        List<InstanceType> options = types.subList(0, 2);
        assertThat(options).allSatisfy(t -> assertThat(t.offerings()).anyMatch(o -> o.capacityType().equals("on-demand")));

        assertThatThrownBy(() -> c.launch(request("claim-a", options)))
                .isInstanceOfSatisfying(InsufficientCapacity.class, e -> assertThat(e.offerings()).isNotEmpty()
                        .allSatisfy(o -> assertThat(o.capacityType()).isEqualTo("spot")));
    }

    @Test
    void withEverySpotOfferingMarkedUnavailableTheFleetAsksForOnDemand() {
        SimulatedCloud c = cloud(FaultPlan.NONE);
        List<InstanceType> noSpot = types.subList(0, 2).stream().map(t -> t.withOfferings(t.offerings().stream()
                .map(o -> o.capacityType().equals("spot") ? o.unavailable() : o).toList())).toList();

        LaunchResult r = c.launch(request("claim-a", noSpot));

        assertThat(r.instance().capacityType()).isEqualTo("on-demand");
    }
}
