package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link ClaimEmptying}: a claim's pods moved into room other claims pay for already, across zones only where every
 * spread stays at least as even. Each case builds the packer's state by hand (full nodes holding each zone's running
 * replicas, claims pinned to a zone) as the packing passes leave it, then runs the pass.
 */
class ClaimEmptyingTest {
    private static final Map<String, String> WEB = Map.of("app", "web");
    /** As the drift scenario's Deployment: a zonal spread of maxSkew 2, ScheduleAnyway. */
    private static final TopologySpread SPREAD = TopologySpread.of(2, WellKnownLabels.ZONE, false, selector("app", "web"));

    private int podIndex;

    private Pod web() {
        return pod("web-" + podIndex++, 500, 1024, WEB).topologySpread(List.of(SPREAD)).build();
    }

    /** The packer for the pending pods, each zone's node full with {@code running} replicas of 60m (40m left). */
    private Packer packer(List<Pod> pending, int... running) {
        return packer(pool("default"), pending, running);
    }

    private Packer packer(PoolBuilder pool, List<Pod> pending, int... running) {
        List<SchedulingInput.ExistingNode> nodes = new ArrayList<>();
        for (int z = 0; z < 3; z++) {
            String zone = ZONES.get(z);
            Pod[] pods = IntStream.range(0, running[z]).mapToObj(i -> pod("old-" + zone + "-" + i, 60, 64, WEB)
                    .topologySpread(List.of(SPREAD)).build()).toArray(Pod[]::new);
            Node n = node("n-" + zone, zone, 1, 8);
            nodes.add(existing(new Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(),
                    Resources.of(60L * running[z] + 40, 8 * GI), n.ready(), n.unschedulable(), n.deleting(), n.createdAt()), pods));
        }
        Packer packer = new Packer(input(pending, nodes, List.of(), pool.offer()));
        packer.prepare(pending);
        return packer;
    }

    /** A claim pinned to the zone, of one type, holding the pods, counted as the packing passes leave it. */
    private static Claim claim(Packer packer, String zone, String type, List<Pod> pods) {
        PoolContext pool = packer.pools.getFirst();
        InstanceType t = pool.types.stream().filter(x -> x.name().equals(type)).findFirst().orElseThrow();
        Claim claim = Claim.open(pool, packer.nextClaimIndex(), pool.requirements.intersect(reqs(WellKnownLabels.ZONE, Operator.In, zone)), List.of(t));
        for (Pod p : pods) {
            ClaimFit fit = claim.fit(PodConstraints.strict(p), Map.of());
            assertThat(fit.ok()).as(fit.failure()).isTrue();
            claim.commit(p, fit);
            packer.topology.record(p, claim);
        }
        packer.claims.add(claim);
        pool.nodes++;
        return claim;
    }

    private List<Pod> webs(int n) {
        return IntStream.range(0, n).mapToObj(i -> web()).toList();
    }

    private static Map<String, Integer> counts(Packer packer, Pod any) {
        return Map.copyOf(packer.topology.selecting(any).getFirst().counts);
    }

    @Test
    void aZonesLastPodMovesIntoAnotherZonesPaidForRoomWhereTheSpreadStaysAsEven() {
        // The drift scenario's scale-up: 7/7/6 running and 20 more, planned 7 in 1a, 5 in 1b and 7 + 1 in 1c (14/12/14).
        List<Pod> inB = webs(5);
        List<Pod> alone = webs(1);
        Packer packer = packer(concat(inB, alone), 14, 7, 13);
        Claim b = claim(packer, ZONES.get(1), "c5.xlarge", inB); // room for eight
        claim(packer, ZONES.get(2), "c5.large", alone);
        double paid = b.price();

        ClaimEmptying.run(packer);

        assertThat(packer.claims).containsExactly(b);
        assertThat(b.pods).hasSize(6).containsAll(alone);
        assertThat(b.price()).as("room paid for already").isEqualTo(paid);
        assertThat(counts(packer, alone.getFirst())).containsEntry(ZONES.get(0), 14).containsEntry(ZONES.get(1), 13)
                .containsEntry(ZONES.get(2), 13);
        assertThat(packer.pools.getFirst().nodes).isEqualTo(1);
    }

    @Test
    void aClaimEmptiedInAPoolWithLimitsGivesBackWhatItCountedAgainstThem() {
        List<Pod> inB = webs(5);
        List<Pod> alone = webs(1);
        Packer packer = packer(pool("default").limit("cpu", "1000"), concat(inB, alone), 14, 7, 13);
        Claim b = claim(packer, ZONES.get(1), "c5.xlarge", inB);
        Claim c = claim(packer, ZONES.get(2), "c5.large", alone);
        PoolContext pool = packer.pools.getFirst();
        Resources counted = pool.committed;
        Resources cs = c.reserved;
        assertThat(cs.cpuMillis()).isPositive();

        ClaimEmptying.run(packer);

        assertThat(packer.claims).containsExactly(b);
        assertThat(pool.committed).isEqualTo(counted.minus(cs));
        assertThat(pool.nodes).isEqualTo(1);
    }

    @Test
    void aPodLeavesNoZoneThatHoldsTheLeast() {
        // maxSkew 4 and 14/12/10: 1c's pod into 1b passes the pod's own check (13 against a least of 10), but 1c holds
        // the least, and 14/13/9 is a skew of 5. Only the rule that the zone left keeps the least count refuses it.
        aLooseReplicaStaysIn1c(new int[] {14, 7, 9}, 12, 10);
    }

    @Test
    void aPodJoinsNoZoneThatWouldHoldTheMost() {
        // 13/14/14. A replica of maxSkew 4 into 1b passes its own check (15 against a least of 13), but 13/15/13 is a
        // skew of 2, past what a replica of the same group with maxSkew 1 allows, where 13/14/14 was within it: the rule
        // that the zone joined reaches at most the greatest count refuses it.
        aLooseReplicaStaysIn1c(new int[] {13, 9, 13}, 14, 14);
    }

    /**
     * Replicas of maxSkew 4 (so their own check passes the move): five in 1b's claim with room for three more, one alone
     * in 1c's; the nodes hold {@code running}. The lone replica stays, and 1b and 1c count {@code inB} and {@code inC}.
     */
    private void aLooseReplicaStaysIn1c(int[] running, int inB, int inC) {
        TopologySpread four = TopologySpread.of(4, WellKnownLabels.ZONE, false, selector("app", "web"));
        List<Pod> five = IntStream.range(0, 5).mapToObj(i -> pod("four-" + i, 500, 1024, WEB).topologySpread(List.of(four)).build()).toList();
        List<Pod> alone = List.of(pod("four-alone", 500, 1024, WEB).topologySpread(List.of(four)).build());
        Packer packer = packer(concat(five, alone), running);
        claim(packer, ZONES.get(1), "c5.xlarge", five);
        Claim c = claim(packer, ZONES.get(2), "c5.large", alone);

        ClaimEmptying.run(packer);

        assertThat(packer.claims).hasSize(2).contains(c);
        assertThat(counts(packer, alone.getFirst())).containsEntry(ZONES.get(1), inB).containsEntry(ZONES.get(2), inC);
    }

    @Test
    void aClaimIsEmptiedWholeOrNotAtAll() {
        // Two pods in 1c, room for one in 1b's claim and none anywhere else: neither moves, and the counts are as before.
        List<Pod> inB = webs(7);
        List<Pod> pair = webs(2);
        Packer packer = packer(concat(inB, pair), 14, 5, 12);
        Claim b = claim(packer, ZONES.get(1), "c5.xlarge", inB);
        Claim c = claim(packer, ZONES.get(2), "c5.large", pair);
        Map<String, Integer> before = counts(packer, pair.getFirst());

        ClaimEmptying.run(packer);

        assertThat(packer.claims).containsExactly(b, c);
        assertThat(b.pods).hasSize(7);
        assertThat(c.pods).containsExactlyElementsOf(pair);
        assertThat(counts(packer, pair.getFirst())).isEqualTo(before);
    }

    @Test
    void aPodBoundToItsZoneStays() {
        List<Pod> inB = webs(5);
        Pod pinned = pod("pinned", 500, 1024, WEB).topologySpread(List.of(SPREAD))
                .nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(2))).build();
        Packer packer = packer(concat(inB, List.of(pinned)), 14, 7, 13);
        claim(packer, ZONES.get(1), "c5.xlarge", inB);
        Claim c = claim(packer, ZONES.get(2), "c5.large", List.of(pinned));

        ClaimEmptying.run(packer);

        assertThat(packer.claims).hasSize(2).contains(c);
    }

    private static List<Pod> concat(List<Pod> a, List<Pod> b) {
        List<Pod> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
