package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Claims that go through the same fits share one options list (and rooms array) rather than a copy each
 * ({@link SharedOptions}): replicas that open a claim each (hostname anti-affinity here), claims filled alike, and
 * claims right-sized alike. That is what keeps a solve's live memory from growing by the catalogue's size per pod. The
 * replicas are too large for the cheapest types, so every claim drops the same options from the pool's.
 */
class SharedOptionsTest {
    private static SchedulingInput replicas(int n) {
        var pods = IntStream.range(0, n).mapToObj(i -> pod("web-" + i, 3000, 6144, Map.of("app", "web"))
                .podAntiAffinity(List.of(PodAffinityTerm.required(selector("app", "web"), WellKnownLabels.HOSTNAME))).build()).toList();
        return scenario().pods(pods).pool(pool("default").offer()).input();
    }

    @Test
    void replicasOpeningClaimsAloneShareTheirOptionsAndRooms() {
        SchedulingInput input = replicas(4);
        Packer packer = new Packer(input);
        for (PodConstraints c : packer.prepare(input.pending())) {
            packer.place(c);
        }
        assertThat(packer.claims).hasSize(4);
        Claim first = packer.claims.getFirst();
        assertThat(first.options).isNotSameAs(first.pool.types).hasSizeLessThan(first.pool.types.size());
        for (Claim c : packer.claims) {
            assertThat(c.options).isSameAs(first.options);
            assertThat(c.optionRooms()).isSameAs(first.optionRooms());
        }
    }

    @Test
    void rightSizingKeepsASharedOptionsListThatIsAlreadyRight() {
        SchedulingInput input = replicas(4);
        Packer packer = new Packer(input);
        CostAwarePacking.run(packer, input.pending());
        assertThat(packer.claims).hasSize(4);
        for (Claim c : packer.claims) {
            assertThat(c.options).isSameAs(packer.claims.getFirst().options);
        }
    }

    @Test
    void claimsFilledAlikeShareTheOptionsTheirSecondPodLeaves() {
        // Four app=a replicas open a claim each; each app=b replica then joins one: the same fit four times over.
        var pods = new java.util.ArrayList<dev.gantry.core.model.Pod>();
        for (String app : List.of("a", "b")) {
            for (int i = 0; i < 4; i++) {
                pods.add(pod(app + "-" + i, 3000, 6144, Map.of("app", app))
                        .podAntiAffinity(List.of(PodAffinityTerm.required(selector("app", app), WellKnownLabels.HOSTNAME))).build());
            }
        }
        SchedulingInput input = scenario().pods(pods).pool(pool("default").offer()).input();
        Packer packer = new Packer(input);
        for (PodConstraints c : packer.prepare(input.pending())) {
            packer.place(c);
        }
        assertThat(packer.claims).hasSize(4).allSatisfy(c -> assertThat(c.pods).hasSize(2));
        Claim first = packer.claims.getFirst();
        assertThat(first.options).hasSizeLessThan(replicasOptions().size());
        for (Claim c : packer.claims) {
            assertThat(c.options).isSameAs(first.options);
        }
    }

    @Test
    void rightSizingClaimsPackedAlikeGivesThemOneList() {
        // Plain pods packed as a bag onto one bin type, two to a claim; right-sizing widens every claim alike.
        SchedulingInput input = scenario().pods(pods("web", 8, 3000, 6144, Map.of())).pool(pool("default").offer()).input();
        Packer packer = new Packer(input);
        CostAwarePacking.run(packer, input.pending());
        assertThat(packer.claims).hasSizeGreaterThan(1);
        Claim first = packer.claims.getFirst();
        assertThat(first.options).hasSizeGreaterThan(1);
        assertThat(packer.claims.stream().filter(c -> c.requests.equals(first.requests)).count()).isGreaterThan(1);
        for (Claim c : packer.claims) {
            if (c.requests.equals(first.requests)) {
                assertThat(c.options).isSameAs(first.options);
            }
        }
    }

    private static List<dev.gantry.core.catalog.InstanceType> replicasOptions() {
        Packer packer = new Packer(replicas(1));
        packer.place(packer.prepare(replicas(1).pending()).getFirst());
        return packer.claims.getFirst().options;
    }
}
