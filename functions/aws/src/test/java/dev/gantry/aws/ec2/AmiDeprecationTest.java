package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.status.NodeClassStatus;
import dev.gantry.testing.Ec2Resources.Image;
import dev.gantry.testing.Ec2State;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Deprecated images, as Karpenter resolves them (aws {@code pkg/providers/amifamily/ami.go}): DescribeImages asked with
 * {@code IncludeDeprecated}, so an image pinned past its deprecation (AWS deprecates public images two years after
 * creation) still launches, marked {@code deprecated} in the status; where a current image matches too, it wins over a
 * newer deprecated one. Against the EC2 stub, which leaves deprecated images out unless asked, as EC2 does.
 */
class AmiDeprecationTest extends Ec2StubTest {
    private static final String OWNER = "602401143452";
    private static final String DEPRECATED = "ami-0d00000000000d001";
    private static final String CURRENT = "ami-0d00000000000c001";

    @Override
    protected Ec2State state() {
        return Ec2State.withDefaults()
                .addImage(new Image(DEPRECATED, "team-node-2023-01", "x86_64", Instant.parse("2023-01-01T00:00:00Z"), OWNER,
                        Map.of(), Instant.parse("2025-01-01T00:00:00Z")))
                .addImage(new Image(CURRENT, "team-node-2022-06", "x86_64", Instant.parse("2022-06-01T00:00:00Z"), OWNER,
                        Map.of()));
    }

    private static NodeClass selecting(NodeClass.AmiSelectorTerm term) {
        return LaunchFixtures.withAmis(LaunchFixtures.al2023(), List.of(term));
    }

    @Test
    void anImagePinnedPastItsDeprecationStillResolvesAndIsMarkedDeprecated() {
        NodeClassStatus s = provider.status(selecting(new NodeClass.AmiSelectorTerm(null, DEPRECATED, null, null, Map.of(), null)));

        assertThat(s.amis()).singleElement().satisfies(a -> {
            assertThat(a.id()).isEqualTo(DEPRECATED);
            assertThat(a.deprecated()).isTrue();
        });
    }

    @Test
    void aCurrentImageWinsOverANewerDeprecatedOneOfTheSameKey() {
        NodeClassStatus s = provider.status(selecting(new NodeClass.AmiSelectorTerm(null, null, "team-node-*", null, Map.of(), null)));

        assertThat(s.amis()).singleElement().satisfies(a -> {
            assertThat(a.id()).isEqualTo(CURRENT);
            assertThat(a.deprecated()).isFalse();
        });
    }

    @Test
    void theStubLeavesDeprecatedImagesOutUnlessAskedAsEc2Does() {
        assertThat(clients.ec2().describeImages(r -> r.filters(f -> f.name("name").values("team-node-*"))).images())
                .extracting(i -> i.imageId()).containsExactly(CURRENT);
        assertThat(clients.ec2().describeImages(r -> r.includeDeprecated(true)
                        .filters(f -> f.name("name").values("team-node-*"))).images())
                .extracting(i -> i.imageId()).containsExactlyInAnyOrder(CURRENT, DEPRECATED)
                .hasSize(2);
        assertThat(clients.ec2().describeImages(r -> r.includeDeprecated(true).filters(f -> f.name("image-id")
                .values(DEPRECATED))).images().getFirst().deprecationTime()).isEqualTo("2025-01-01T00:00:00Z");
    }
}
