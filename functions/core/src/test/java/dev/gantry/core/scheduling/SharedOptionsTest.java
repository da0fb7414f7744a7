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
 * Claims that a Deployment's replicas open one each (hostname anti-affinity here) hold one shared options list and
 * rooms array rather than a copy each: what keeps a solve's live memory from growing by the catalogue's size per pod.
 * The replicas are too large for the cheapest types, so every claim drops the same options from the pool's.
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
}
