package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link Scheduler#solveForLaunch}: a launch leaves room for a small consolidatable node's pods when that is strictly
 * cheaper net of the node, so consolidation can then delete it. The catalogue is priced flat per vCPU, as EC2's is
 * within a family, and a DaemonSet of 250m runs on every node: a c.large (2 vCPU, $0.10) holds one 1-vCPU pod, a
 * c.xlarge ($0.20) three, a c.2xlarge ($0.40) seven. The pool launches on-demand only.
 */
class AbsorbingTest {
    private static final String ZONE = ZONES.get(0);
    private static final List<InstanceType> TYPES = List.of(type("c.large", 2, 4, 0.10), type("c.xlarge", 4, 8, 0.20),
            type("c.2xlarge", 8, 16, 0.40));
    private static final DaemonSet AGENT = daemonSet("agent", 250, 64);

    private static Pod web(String name) {
        return pod(name, 1000, 512).owner("ReplicaSet", "web-1").build();
    }

    private static Node managed(String name, String type) {
        Node n = node(name, ZONE, type.equals("c.large") ? 2 : 4, type.equals("c.large") ? 4 : 8);
        Map<String, String> labels = new HashMap<>(n.labels());
        labels.put(WellKnownLabels.NODEPOOL, "default");
        labels.put(Node.INITIALIZED_LABEL, "true");
        labels.put(Node.REGISTERED_LABEL, "true");
        labels.put(WellKnownLabels.INSTANCE_TYPE, type);
        return new Node(n.name(), n.providerId(), labels, n.annotations(), n.taints(), n.allocatable(), n.ready(), false, false,
                n.createdAt());
    }

    /** A node with the DaemonSet's pod bound, and {@code pods}. */
    private static SchedulingInput.ExistingNode running(Node n, Pod... pods) {
        List<Pod> all = new ArrayList<>(List.of(pods));
        all.add(pod("agent-" + n.name(), 250, 64).owner("DaemonSet", "agent").build());
        return existing(n, all.toArray(Pod[]::new));
    }

    private static SchedulingInput.PoolOffer offer(NodePool.ConsolidationPolicy policy) {
        return offer(policy, TYPES);
    }

    private static SchedulingInput.PoolOffer offer(NodePool.ConsolidationPolicy policy, List<InstanceType> types) {
        return offer(pool("default").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand").build(), policy, types);
    }

    private static SchedulingInput.PoolOffer offer(NodePool p, NodePool.ConsolidationPolicy policy, List<InstanceType> types) {
        NodePool withPolicy = new NodePool(p.name(), p.annotations(), p.template(),
                new NodePool.Disruption(policy, Optional.of(Duration.ZERO), List.of()), p.limits(), p.weight(), p.convertedFrom());
        return new SchedulingInput.PoolOffer(withPolicy, types);
    }

    private static SchedulingInput input(SchedulingInput.PoolOffer offer, SchedulingInput.ExistingNode... nodes) {
        List<Pod> pending = new ArrayList<>(List.of(web("new-1"), web("new-2")));
        return new SchedulingInput(pending, List.of(nodes), List.of(), List.of(AGENT), List.of(offer), Map.of());
    }

    /** What the plan's claims request for pods (their requests less one DaemonSet each), in millicores. */
    private static long podCpu(SchedulingResult r) {
        return r.newClaims().stream().mapToLong(c -> c.requests().cpuMillis() - AGENT.template().requests().cpuMillis()).sum();
    }

    @Test
    void aLaunchLeavesRoomForASmallConsolidatableNodesPodsWhenThatIsCheaperNetOfTheNode() {
        // Two pending pods alone: $0.20 (a c.xlarge, or two c.large). With the c.large's pod too, one c.xlarge holds all
        // three: $0.20 - $0.10 for the node consolidation then deletes.
        SchedulingInput in = input(offer(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized),
                running(managed("small", "c.large"), web("bound-1")));
        SchedulingResult plain = Scheduler.solve(in);
        assertThat(podCpu(plain)).isEqualTo(2000);

        SchedulingResult r = Scheduler.solveForLaunch(in);
        assertThat(r.newClaims()).hasSize(1);
        SchedulingResult.NodeClaimPlan claim = r.newClaims().getFirst();
        assertThat(claim.pods()).extracting(Pod::name).containsExactlyInAnyOrder("new-1", "new-2");
        assertThat(podCpu(r)).as("room for the donor's pod too").isEqualTo(3000);
        assertThat(claim.instanceType().name()).isEqualTo("c.xlarge");
        assertThat(claim.instanceTypeOptions()).allSatisfy(t -> assertThat(t.allocatable().cpuMillis()).isGreaterThanOrEqualTo(3250));
        assertThat(r.existingNodes()).doesNotContainKey("small");
        assertThat(r.unschedulable()).isEmpty();
    }

    @Test
    void aNodeWhosePodsCostNoMoreThanTheirShareOfABiggerLaunchIsKept() {
        // A full c.xlarge (three pods, $0.20): five pods need $0.40 whichever way, so leaving room saves nothing.
        SchedulingInput in = input(offer(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized),
                running(managed("full", "c.xlarge"), web("bound-1"), web("bound-2"), web("bound-3")));
        assertThat(podCpu(Scheduler.solveForLaunch(in))).isEqualTo(2000);
    }

    @Test
    void aNodeWithADoNotDisruptPodIsNoDonor() {
        Pod protectedPod = pod("bound-1", 1000, 512).owner("ReplicaSet", "web-1")
                .annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build();
        SchedulingInput in = input(offer(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized),
                running(managed("small", "c.large"), protectedPod));
        assertThat(podCpu(Scheduler.solveForLaunch(in))).isEqualTo(2000);
    }

    @Test
    void aNodeInAWhenEmptyPoolIsNoDonor() {
        SchedulingInput in = input(offer(NodePool.ConsolidationPolicy.WhenEmpty), running(managed("small", "c.large"), web("bound-1")));
        assertThat(podCpu(Scheduler.solveForLaunch(in))).isEqualTo(2000);
    }

    @Test
    void aNodeRunningAPodNoControllerRecreatesIsNoDonor() {
        SchedulingInput in = input(offer(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized),
                running(managed("small", "c.large"), pod("bare", 1000, 512).build()));
        assertThat(podCpu(Scheduler.solveForLaunch(in))).isEqualTo(2000);
    }

    @Test
    void aPlanLaunchingForMoreThanASmallBatchIsLeftAlone() {
        // 26 pending pods: three c.2xlarge and a c.xlarge plus a c.large or a fourth c.2xlarge ($1.60); with the donor's
        // pod, 27 fit three c.2xlarge and two c.xlarge ($1.60 - $0.10). Past MAX_LAUNCHED_PODS no trial is made.
        List<Pod> pending = new ArrayList<>();
        for (int i = 0; i < 26; i++) {
            pending.add(web("new-" + i));
        }
        SchedulingInput in = new SchedulingInput(pending, List.of(running(managed("small", "c.large"), web("bound-1"))), List.of(),
                List.of(AGENT), List.of(offer(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized)), Map.of());
        assertThat(Absorbing.MAX_LAUNCHED_PODS).isLessThan(26);
        assertThat(podCpu(Scheduler.solveForLaunch(in))).isEqualTo(26000);
    }

    @Test
    void aPlanThatLaunchesNothingIsLeftAlone() {
        SchedulingInput in = new SchedulingInput(List.of(web("new-1")), List.of(running(managed("roomy", "c.xlarge")),
                running(managed("small", "c.large"), web("bound-1"))), List.of(), List.of(AGENT),
                List.of(offer(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized)), Map.of());
        SchedulingResult r = Scheduler.solveForLaunch(in);
        assertThat(r.newClaims()).isEmpty();
        assertThat(r.existingNodes()).containsKey("roomy");
    }

    @Test
    void aLaunchDoesNotHandTheRoomOfAClaimInFlightToADonorAndLaunchAgainForThePendingPods() {
        // A claim in flight has room for three of the five pending pods. The trial parked the donor's pod there and put
        // three pending pods on a new c.xlarge (net $0.10/h, as good as the other way round on paper); kube-scheduler
        // then gave the room to the pending pods, the donor stayed, and the new node stood empty (issue #21: a leaving
        // node's pods, planned onto their replacement in flight, displaced from it).
        List<Pod> pending = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            pending.add(web("new-" + i));
        }
        SchedulingInput in = new SchedulingInput(pending, List.of(running(managed("small", "c.large"), web("bound-1"))),
                List.of(inFlight("booting", "default", ZONE, 3, 8, List.of())), List.of(AGENT),
                List.of(offer(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized)), Map.of());
        int plainInFlight = Scheduler.solve(in).inFlightClaims().getOrDefault("booting", List.of()).size();

        SchedulingResult r = Scheduler.solveForLaunch(in);

        assertThat(r.inFlightClaims().getOrDefault("booting", List.of())).hasSize(plainInFlight);
        assertThat(r.strategy()).as("still absorbs, on the new claim").endsWith("+absorb");
        assertThat(podCpu(r)).isEqualTo(3000);
    }

    /**
     * Three pending web replicas spread over the zones ({@code doNotSchedule} or not), beside a c.large donor in the
     * first zone running another pod; the c.xlarge priced $0.17 here, so one in the first zone for a replica and the
     * donor's pod ($0.17 + two c.large less the donor's $0.10) beats three c.large ($0.30).
     */
    private static SchedulingInput spreadBatch(boolean doNotSchedule) {
        dev.gantry.core.model.TopologySpread s = dev.gantry.core.model.TopologySpread.of(1, WellKnownLabels.ZONE, doNotSchedule,
                selector("app", "web"));
        List<Pod> pending = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            pending.add(pod("web-" + i, 1000, 512, Map.of("app", "web")).owner("ReplicaSet", "web-1").topologySpread(List.of(s)).build());
        }
        SchedulingInput.ExistingNode donor = running(managed("donor", "c.large"), pod("api-1", 1000, 512).owner("ReplicaSet", "api-1").build());
        List<InstanceType> types = List.of(type("c.large", 2, 4, 0.10), type("c.xlarge", 4, 8, 0.17), type("c.2xlarge", 8, 16, 0.40));
        return new SchedulingInput(pending, List.of(donor), List.of(), List.of(AGENT),
                List.of(offer(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, types)), Map.of());
    }

    /** The cpu of the pods a claim holds room for beyond its own pending ones (the donors'), in millicores. */
    private static long donorCpu(SchedulingResult.NodeClaimPlan c) {
        return c.requests().cpuMillis() - AGENT.template().requests().cpuMillis() - c.pods().stream().mapToLong(p -> p.requests().cpuMillis()).sum();
    }

    /**
     * A {@code ScheduleAnyway} spread only scores nodes, so kube-scheduler binds the pending replicas to whichever new
     * node that fits is Ready first. Planned as if the spread were required, the absorbing launch was three nodes, the
     * first zone's a c.xlarge with room for the donor's pod: Ready first, it takes two replicas, and a c.large
     * launches for nothing (the simulator's diurnal day: 25 such launches over four seeds). No new claim of the
     * plan may keep donors' room that another's pending pods could fill.
     */
    @Test
    void noNewNodeKeepsDonorsRoomThatAnotherNewNodesSoftlySpreadPodsWouldFill() {
        SchedulingResult r = Scheduler.solveForLaunch(spreadBatch(false));
        assertThat(r.newClaims().stream().mapToInt(c -> c.pods().size()).sum()).isEqualTo(3);
        for (SchedulingResult.NodeClaimPlan c : r.newClaims()) {
            for (SchedulingResult.NodeClaimPlan other : r.newClaims()) {
                long theirs = other.pods().stream().mapToLong(p -> p.requests().cpuMillis()).sum();
                assertThat(other == c || donorCpu(c) < theirs).as("%s keeps %dm for donors, %s's pods need %dm", c.instanceType().name(),
                        donorCpu(c), other.instanceType().name(), theirs).isTrue();
            }
        }
    }

    /**
     * With the spread required, kube-scheduler cannot put a second replica into the first zone's node, so that node's
     * room for the donor's pods takes nobody's place: the launch still absorbs the donor (one node per zone, the first
     * zone's a c.xlarge: $0.37 less the donor's $0.10, against $0.30 for three c.large).
     */
    @Test
    void aRequiredSpreadStillLetsALaunchAbsorbADonor() {
        SchedulingResult r = Scheduler.solveForLaunch(spreadBatch(true));
        assertThat(r.strategy()).endsWith("+absorb");
        assertThat(r.newClaims()).hasSize(3);
        assertThat(r.newClaims().stream().mapToLong(AbsorbingTest::donorCpu).sum()).isEqualTo(1000);
    }

    /**
     * A launch absorbs a donor whose softly spread replica fits its batch's zone: one replica of {@code web} runs in
     * each zone (ScheduleAnyway, maxSkew 2), the first zone's on a consolidatable c.large, and two more are pending.
     * Both and the donor's replica share a c.xlarge in the first zone ($0.20 less the donor's $0.10, against $0.20):
     * three replicas there against one in each other zone keep the spread.
     */
    @Test
    void aLaunchAbsorbsADonorWhoseReplicaItsBatchLeavesRoomForWithinTheSpread() {
        dev.gantry.core.model.TopologySpread soft = dev.gantry.core.model.TopologySpread.of(2, WellKnownLabels.ZONE, false, selector("app", "web"));
        java.util.function.Function<String, Pod> replica = name -> pod(name, 1000, 512, Map.of("app", "web")).owner("ReplicaSet", "web-1")
                .topologySpread(List.of(soft)).build();
        List<SchedulingInput.ExistingNode> nodes = List.of(running(managed("donor", "c.large"), replica.apply("running-a")),
                existing(node("full-b", ZONES.get(1), 1, 2), replica.apply("running-b")),
                existing(node("full-c", ZONES.get(2), 1, 2), replica.apply("running-c")));
        SchedulingInput in = new SchedulingInput(List.of(replica.apply("new-1"), replica.apply("new-2")), nodes, List.of(), List.of(AGENT),
                List.of(offer(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized)), Map.of());

        SchedulingResult r = Scheduler.solveForLaunch(in);

        assertThat(r.strategy()).endsWith("+absorb");
        assertThat(r.newClaims().stream().mapToLong(AbsorbingTest::donorCpu).sum()).isEqualTo(1000);
    }

    /** The launch is for the pending pods as they are: a trial plans them without their soft spreads, the plan does not. */
    @Test
    void theAbsorbingPlanNamesThePendingPodsAsGiven() {
        dev.gantry.core.model.TopologySpread s = dev.gantry.core.model.TopologySpread.of(1, WellKnownLabels.ZONE, false, selector("app", "web"));
        List<Pod> pending = List.of(pod("new-1", 1000, 512, Map.of("app", "web")).owner("ReplicaSet", "web-1").topologySpread(List.of(s)).build(),
                pod("new-2", 1000, 512, Map.of("app", "web")).owner("ReplicaSet", "web-1").topologySpread(List.of(s)).build());
        SchedulingInput in = new SchedulingInput(pending, List.of(running(managed("small", "c.large"), web("bound-1"))), List.of(),
                List.of(AGENT), List.of(offer(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized)), Map.of());
        SchedulingResult r = Scheduler.solveForLaunch(in);
        assertThat(r.strategy()).endsWith("+absorb");
        assertThat(r.newClaims().stream().flatMap(c -> c.pods().stream()).toList()).containsExactlyInAnyOrderElementsOf(pending);
    }

    /**
     * The room a new node keeps for donors is refused only where another new node's pending pods could take it: a pod
     * that does not tolerate the node's taints cannot. Three replicas of a dedicated pool's team (tolerating its taint
     * and selecting the pool; the DaemonSet does not run there) and one plain pod: the team's c.xlarge keeps room for
     * the dedicated c.large's pod ($0.20 + $0.10 for the plain pod's c.large, less the donor's $0.10, against $0.30).
     * The plain pod's 1 vCPU would fit that room, so the launch was refused while the check left the taints out.
     */
    @Test
    void podsThatDoNotTolerateANewNodesTaintsDoNotCountAsTakingItsRoom() {
        var taint = new dev.gantry.core.model.Taint("team", "a", dev.gantry.core.model.Taint.Effect.NoSchedule);
        var toleration = dev.gantry.core.model.Toleration.equal("team", "a", dev.gantry.core.model.Taint.Effect.NoSchedule);
        java.util.function.Function<String, Pod> team = name -> pod(name, 1000, 512).owner("ReplicaSet", "team-1")
                .tolerations(List.of(toleration)).nodeSelector(Map.of(WellKnownLabels.NODEPOOL, "dedicated")).build();
        NodePool dedicated = pool("dedicated").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand")
                .taint("team", "a", dev.gantry.core.model.Taint.Effect.NoSchedule).build();
        Node small = managed("small", "c.large");
        Map<String, String> labels = new HashMap<>(small.labels());
        labels.put(WellKnownLabels.NODEPOOL, "dedicated");
        small = new Node(small.name(), small.providerId(), labels, small.annotations(), List.of(taint), small.allocatable(), small.ready(),
                false, false, small.createdAt());
        SchedulingInput in = new SchedulingInput(List.of(team.apply("team-2"), team.apply("team-3"), team.apply("team-4"), web("plain-1")),
                List.of(running(small, team.apply("team-1"))), List.of(), List.of(AGENT),
                List.of(offer(dedicated, NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, TYPES),
                        offer(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized)), Map.of());
        assertThat(Scheduler.solve(in).totalPricePerHour()).isCloseTo(0.30, org.assertj.core.data.Offset.offset(1e-9));

        SchedulingResult r = Scheduler.solveForLaunch(in);

        assertThat(r.strategy()).endsWith("+absorb");
        SchedulingResult.NodeClaimPlan teams = r.newClaims().stream().filter(c -> c.nodePool().equals("dedicated")).findFirst().orElseThrow();
        assertThat(teams.pods()).extracting(Pod::name).containsExactlyInAnyOrder("team-2", "team-3", "team-4");
        assertThat(teams.instanceType().name()).isEqualTo("c.xlarge");
        assertThat(teams.requests().cpuMillis() - 3000).as("room for the donor's pod (no DaemonSet there)").isEqualTo(1000);
    }
}
