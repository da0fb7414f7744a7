package dev.gantry.core.disruption.consolidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.scheduling.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SimulationTest {

    @Test
    void theFastPathAnswersAsTheFullSchedulerDoesForPodsWithoutTopology() {
        int compared = 0;
        for (long seed = 0; seed < 25; seed++) {
            Random r = new Random(seed);
            TestCluster c = randomCluster(r);
            ConsolidationInput in = c.input();
            Candidates cands = Candidates.of(in, Map.of("default", in.pools().get(0)), false);
            Simulation fast = new Simulation(in);
            Simulation full = new Simulation(in, false);
            List<Candidate> all = cands.all;
            for (int from = 0; from < all.size(); from++) {
                for (int to = from + 1; to <= all.size(); to++) {
                    List<Candidate> set = all.subList(from, to);
                    Simulation.Outcome a = fast.trial(set, Scheduler.Strategy.KARPENTER_GREEDY);
                    Simulation.Outcome b = full.trial(set, Scheduler.Strategy.KARPENTER_GREEDY);
                    assertThat(a.ok()).as("seed %d %s", seed, set).isEqualTo(b.ok());
                    if (a.ok()) {
                        assertThat(onNodes(a)).as("seed %d %s", seed, set).isEqualTo(onNodes(b));
                        assertThat(a.destinations().keySet()).isEqualTo(b.destinations().keySet());
                        assertThat(a.newClaims().stream().mapToDouble(p -> p.pricePerHour()).sum())
                                .isEqualTo(b.newClaims().stream().mapToDouble(p -> p.pricePerHour()).sum(), org.assertj.core.data.Offset.offset(1e-9));
                        compared++;
                    }
                }
            }
        }
        assertThat(compared).isGreaterThan(50);
    }

    /**
     * With a buffer's chunks bound ({@link BufferRoomTaken}): the first-fit re-placement answers as the one through the
     * scheduler does.
     */
    @Test
    void withBuffersTheFastPathAnswersAsTheFullSchedulerDoes() {
        int compared = 0;
        int displaced = 0;
        for (long seed = 0; seed < 40; seed++) {
            Random r = new Random(seed);
            TestCluster c = randomCluster(r);
            List<dev.gantry.core.model.Pod> chunks = new ArrayList<>();
            for (int k = 1 + r.nextInt(3); k > 0; k--) {
                chunks.add(dev.gantry.core.model.Pod.builder("default", "chunk-" + k).uid("chunk-" + k).owner("CapacityBuffer", "b")
                        .requests(dev.gantry.core.model.Resources.of(new long[]{250, 500, 1000}[r.nextInt(3)], 512L << 20)).build());
            }
            ConsolidationInput plain = c.input();
            ConsolidationInput in = Reserved.bind(new ConsolidationInput(plain.nodes(), plain.pools(), plain.daemonSets(),
                    plain.pdbs(), plain.namespaceLabels(), plain.settings(), plain.now(), chunks, null, List.of()), new java.util.HashSet<>());
            Candidates cands = Candidates.of(in, Map.of("default", in.pools().get(0)), false);
            Simulation fast = new Simulation(in);
            Simulation full = new Simulation(in, false);
            List<Candidate> all = cands.all;
            for (int from = 0; from < all.size(); from++) {
                for (int to = from + 1; to <= Math.min(all.size(), from + 3); to++) {
                    List<Candidate> set = all.subList(from, to);
                    Simulation.Outcome a = fast.trial(set, Scheduler.Strategy.KARPENTER_GREEDY);
                    Simulation.Outcome b = full.trial(set, Scheduler.Strategy.KARPENTER_GREEDY);
                    assertThat(a.ok()).as("seed %d %s", seed, set).isEqualTo(b.ok());
                    if (a.ok()) {
                        assertThat(a.destinations().keySet()).as("seed %d %s", seed, set).isEqualTo(b.destinations().keySet());
                        assertThat(a.newClaims().stream().mapToDouble(p -> p.pricePerHour()).sum()).as("seed %d %s", seed, set)
                                .isEqualTo(b.newClaims().stream().mapToDouble(p -> p.pricePerHour()).sum(), org.assertj.core.data.Offset.offset(1e-9));
                        compared++;
                        displaced += a.newClaims().stream().anyMatch(p -> p.pods().stream().anyMatch(Reserved::marked)) ? 1 : 0;
                    }
                }
            }
        }
        assertThat(compared).isGreaterThan(50);
        assertThat(displaced).as("trials whose new claims hold pushed-out chunks").isGreaterThan(5);
    }

    /** 3 to 10 nodes of the standard types, each with up to 4 pods of random size. */
    private static TestCluster randomCluster(Random r) {
        String[] types = {"small", "large", "xlarge", "2xlarge"};
        TestCluster c = TestCluster.standard();
        for (int i = 0; i < 3 + r.nextInt(8); i++) {
            int t = r.nextInt(4);
            List<dev.gantry.core.model.Pod.Builder> pods = new ArrayList<>();
            for (int k = r.nextInt(5); k > 0; k--) {
                pods.add(c.pod(new long[]{100, 250, 500, 900}[r.nextInt(4)], 128L << r.nextInt(5)));
            }
            c.node(c.nodeOf("n" + i, types[t], "on-demand", Map.of()), pods.toArray(dev.gantry.core.model.Pod.Builder[]::new));
        }
        return c;
    }

    /** Pod to node for the pods placed on existing nodes (new claims get generated names, compared by price). */
    private static Map<String, String> onNodes(Simulation.Outcome o) {
        java.util.Set<String> claims = new java.util.HashSet<>();
        o.newClaims().forEach(p -> claims.add(p.name()));
        Map<String, String> out = new java.util.TreeMap<>(o.destinations());
        out.values().removeIf(claims::contains);
        return out;
    }
}
