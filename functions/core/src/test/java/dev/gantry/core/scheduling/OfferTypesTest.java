package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What solves over one offer share ({@link OfferTypes}): the same answers as each solve worked out alone, found once. */
class OfferTypesTest {
    private static final SchedulingInput.PoolOffer AMD64 = pool("amd64").req(WellKnownLabels.ARCH, Operator.In, "amd64").offer();

    @Test
    void thePoolsLaunchableTypesAreItsCompatibleTypesCheapestFirst() {
        // spot at 30% of the on-demand price (Fixtures.type): c5.large 0.0255, m5.large 0.0288, r5.large 0.0378, c5.xlarge 0.051
        assertThat(AMD64.launchableTypes()).extracting(InstanceType::name).startsWith("c5.large", "m5.large", "r5.large", "c5.xlarge")
                .doesNotContain("m6g.large", "m6g.xlarge").hasSize(catalogue().size() - 2);
    }

    @Test
    void aRequirementSetsTypesAreFoundOnceForEverySolveOverTheOffer() {
        var gpu = reqs(WellKnownLabels.INSTANCE_GPU_COUNT, Operator.Exists);
        List<InstanceType> first = AMD64.types().launchable(AMD64.requirements().intersect(gpu));
        assertThat(first).extracting(InstanceType::name).containsExactly("p3.2xlarge", "p3.8xlarge");
        // A second solve's pool context, and a second ask, get the very list the first worked out.
        assertThat(new PoolContext(AMD64, List.of()).typesFor(AMD64.requirements().intersect(gpu))).isSameAs(first);
        assertThat(new PoolContext(AMD64, List.of()).types).isSameAs(AMD64.launchableTypes());
    }

    @Test
    void pastTheBoundAnswersAreWorkedOutAndNotKept() {
        var offer = pool("many").offer();
        for (int i = 0; i < OfferTypes.KEPT + 10; i++) {
            offer.types().launchable(offer.requirements().intersect(reqs("team", Operator.In, "t" + i)));
        }
        var late = offer.requirements().intersect(reqs("team", Operator.In, "late"));
        List<InstanceType> once = offer.types().launchable(late);
        assertThat(once).isEqualTo(offer.launchableTypes()).isNotSameAs(offer.types().launchable(late));
    }

    @Test
    void anOfferIsAValueWhateverItHasWorkedOut() {
        AMD64.launchableTypes();
        var twin = new SchedulingInput.PoolOffer(AMD64.pool(), AMD64.instanceTypes(), AMD64.usage(), AMD64.nodeCount());
        assertThat(twin).isEqualTo(AMD64).hasSameHashCodeAs(AMD64);
        assertThat(twin).isNotEqualTo(new SchedulingInput.PoolOffer(twin.pool(), twin.instanceTypes(), twin.usage(), 1));
    }

    @Test
    void aTemplateClaimOffersTheSameTypesAPodsClaimWould() {
        var plan = TemplatePlan.of(AMD64, "static-0").orElseThrow();
        assertThat(plan.instanceTypeOptions()).isEqualTo(AMD64.launchableTypes());
        var r = Scheduler.solve(input(List.of(pod("a", 100, 128, Map.of()).build()), AMD64));
        assertThat(r.newClaims().getFirst().instanceType()).isEqualTo(plan.instanceType());
    }
}
