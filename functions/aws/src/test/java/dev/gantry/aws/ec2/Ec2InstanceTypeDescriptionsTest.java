package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.aws.pricing.LiveInstanceTypeProvider;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeDescriptions.Described;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.catalog.overlay.NodeOverlay;
import dev.gantry.core.catalog.overlay.PriceChange;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.PriceView;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Ec2InstanceTypeShape;
import dev.gantry.testing.Ec2Responses;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Preview instance types read live (Karpenter v1.14.1): a NodeOverlay with exactly one
 * {@code node.kubernetes.io/instance-type In} requirement and an absolute {@code price} enables a type EC2's
 * DescribeInstanceTypes lists but no price covers (aws {@code pkg/providers/instancetype/offering/offering.go}
 * GetOverlayPrice, {@code base_resolver.go} ResolveOfferings; docs {@code concepts/nodeoverlays.md} "NodeOverlays and
 * Preview Instance Types"). The type's shape is EC2's, mapped as aws {@code pkg/providers/instancetype/types.go}
 * reads it (computeRequirements, ENILimitedPods). Against the stub, signed as the provisioner.
 */
class Ec2InstanceTypeDescriptionsTest {
    private static final NodeClass NODE_CLASS = new NodeClass("default", null, null, "AL2023", null, null, null,
            "role", null, null, null, null, null, null, null, null, null);
    /** A made-up pre-GA type: no data file, no Price List entry, but DescribeInstanceTypes knows it. */
    static final Ec2InstanceTypeShape M10G = new Ec2InstanceTypeShape("m10g.xlarge", 4, 16384, "arm64", "AWS", 3.0, 4, 15,
            "nitro", false, false, List.of("on-demand"), 1.875, 2500, null, 0, null, null, null);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-09-01T00:00:00Z"));
    private AwsStub stub;
    private StubClients provisioner;

    @BeforeEach
    void start() {
        Ec2State state = Ec2State.withDefaults();
        state.addInstanceType(M10G.info(), List.of("us-east-1a", "us-east-1b"), "0.05");
        state.instanceTypeShapes().put(M10G);
        stub = AwsStub.start(state, clock);
        provisioner = StubClients.of(stub, "provisioner");
    }

    @AfterEach
    void stop() {
        provisioner.close();
        stub.close();
    }

    private Ec2InstanceTypeDescriptions descriptions() {
        return new Ec2InstanceTypeDescriptions(provisioner.ec2(), clock);
    }

    /** aws types.go: capacity types from SupportedUsageClasses; pods = ENIs of the default card × (IPv4 − 1) + 2. */
    @Test
    void aTypeIsReadWithEc2sShape() {
        Described d = descriptions().describe("m10g.xlarge").orElseThrow();

        assertThat(d.spec().vcpu()).isEqualTo(4);
        assertThat(d.spec().memoryMiB()).isEqualTo(16384);
        assertThat(d.spec().arch()).isEqualTo("arm64");
        assertThat(d.spec().cpuManufacturer()).isEqualTo("aws");
        assertThat(d.spec().cpuSustainedClockSpeedMhz()).isEqualTo(3000);
        assertThat(d.spec().maxPods()).isEqualTo(4 * (15 - 1) + 2);
        assertThat(d.spec().networkBandwidthMbps()).isEqualTo(1875);
        assertThat(d.spec().ebsBandwidthMbps()).isEqualTo(2500);
        assertThat(d.spec().family()).isEqualTo("m10g");
        assertThat(d.spec().generation()).isEqualTo(10);
        assertThat(d.capacityTypes()).containsExactly("on-demand");
        assertThat(stub.requests("DescribeInstanceTypes")).singleElement()
                .satisfies(q -> assertThat(q.values("InstanceType")).containsExactly("m10g.xlarge"));
    }

    /** {@code ProcessorInfo.SupportedFeatures} lists {@code nested-virtualization} on the types that support it. */
    @Test
    void nestedVirtualizationIsReadFromTheProcessorsSupportedFeatures() {
        Ec2InstanceTypeShape c8i = new Ec2InstanceTypeShape("c8i.xlarge", 4, 8192, "x86_64", "Intel", 3.9, 4, 15,
                "nitro", false, false, List.of("on-demand", "spot"), 1.875, 2500, null, 0, null, null, null);
        stub.ec2().addInstanceType(c8i.info(), List.of("us-east-1a"), "0.05");
        stub.ec2().instanceTypeShapes().put(c8i);

        assertThat(descriptions().describe("c8i.xlarge").orElseThrow().spec().nestedVirtualization()).isTrue();
        assertThat(descriptions().describe("m10g.xlarge").orElseThrow().spec().nestedVirtualization()).isFalse();
    }

    /** EC2 answers InvalidInstanceType for a name it does not know: no such type, not a failure; remembered. */
    @Test
    void anUnknownTypeIsEmptyAndAskedForOnce() {
        Ec2InstanceTypeDescriptions d = descriptions();
        assertThat(d.describe("m99z.large")).isEmpty();
        assertThat(d.describe("m99z.large")).isEmpty();
        assertThat(stub.requests("DescribeInstanceTypes")).hasSize(1);
    }

    /** Gantry's own: answers are kept 5 minutes (Karpenter re-reads instance types on that period). */
    @Test
    void answersAreCachedForFiveMinutes() {
        Ec2InstanceTypeDescriptions d = descriptions();
        d.describe("m10g.xlarge");
        d.describe("m10g.xlarge");
        assertThat(stub.requests("DescribeInstanceTypes")).hasSize(1);
        clock.advance(Duration.ofMinutes(5));
        d.describe("m10g.xlarge");
        assertThat(stub.requests("DescribeInstanceTypes")).hasSize(2);
    }

    /** A failure is thrown sorted (retryable or not) and not cached: the next call asks again. */
    @Test
    void failuresAreMappedAndNotCached() {
        stub.on("DescribeInstanceTypes", q -> Ec2Responses.error("UnauthorizedOperation", "You are not authorized."));
        Ec2InstanceTypeDescriptions d = descriptions();
        assertThatThrownBy(() -> d.describe("m10g.xlarge")).isInstanceOfSatisfying(CloudException.class, e -> {
            assertThat(e.code()).isEqualTo("UnauthorizedOperation");
            assertThat(e.retryable()).isFalse();
        });
        assertThatThrownBy(() -> d.describe("m10g.xlarge")).isInstanceOf(CloudException.class);
        assertThat(stub.requests("DescribeInstanceTypes")).hasSize(2);
    }

    /**
     * Regression (Gantry's own): a throttled DescribeInstanceTypes made the preview type look unknown, and the overlay's
     * status said PreviewTypeNotFound until the next sweep. "Could not ask" is now apart from "not found".
     */
    @Test
    void aThrottledDescriptionIsUnansweredNotUnknown() {
        stub.on("DescribeInstanceTypes", q -> Ec2Responses.error("RequestLimitExceeded", "Request limit exceeded."));
        LiveInstanceTypeProvider live = LiveInstanceTypeProvider.create(BuiltInCatalog.load("us-east-1", Ec2State.ZONES),
                provisioner.ec2(), provisioner.pricing(), clock).withDescriptions(descriptions());

        var r = PriceView.resolve(config(overlay("preview", "0.15", "m10g.xlarge")), live);

        assertThat(r.unknownPreviews()).isEmpty();
        assertThat(r.unansweredPreviews()).containsEntry("preview", List.of("m10g.xlarge"));
        assertThat(live.unanswered("m10g.xlarge")).isTrue();
    }

    private static NodeOverlay overlay(String name, String price, String... types) {
        String[] problem = new String[1];
        return new NodeOverlay(name, List.of(Requirement.of(WellKnownLabels.INSTANCE_TYPE, Operator.In, types)),
                PriceChange.price(price, problem), Map.of(), 1);
    }

    private static GantryConfig config(NodeOverlay... overlays) {
        NodePool.Template t = new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(),
                List.of(Requirement.of(WellKnownLabels.ARCH, Operator.In, "arm64")),
                new NodePool.NodeClassRef(null, null, "default"), Optional.empty(), Optional.empty());
        return new GantryConfig(List.of(new NodePool("arm", Map.of(), t, null, Map.of(), null, null)), List.of(NODE_CLASS),
                "us-east-1", Ec2State.ZONES, List.of(overlays));
    }

    private List<InstanceType> types(GantryConfig config) {
        LiveInstanceTypeProvider live = LiveInstanceTypeProvider.create(BuiltInCatalog.load("us-east-1", Ec2State.ZONES),
                provisioner.ec2(), provisioner.pricing(), clock).withDescriptions(descriptions());
        return new PriceView(config, live).types(config.nodePools().getFirst());
    }

    /**
     * offering.go GetOverlayPrice + base_resolver.go: the preview type enters the pool's types with EC2's shape, offered
     * in the zones DescribeInstanceTypeOfferings lists as the capacity types EC2 sells it as, at the overlay's price.
     */
    @Test
    void aPreviewOverlayEnablesTheTypeLive() {
        InstanceType m10g = types(config(overlay("preview", "0.15", "m10g.xlarge"))).stream()
                .filter(t -> t.name().equals("m10g.xlarge")).findFirst().orElseThrow();

        assertThat(m10g.labels()).containsEntry(WellKnownLabels.ARCH, "arm64").containsEntry("karpenter.k8s.aws/instance-cpu", "4");
        assertThat(m10g.capacity().get("pods")).as("built as the catalogue builds m7g.xlarge, which has the same facts")
                .isEqualTo(BuiltInCatalog.load("us-east-1", Ec2State.ZONES).instanceTypes(NODE_CLASS).stream()
                        .filter(t -> t.name().equals("m7g.xlarge")).findFirst().orElseThrow().capacity().get("pods"));
        assertThat(m10g.offerings()).extracting(Offering::zone).containsExactly("us-east-1a", "us-east-1b");
        assertThat(m10g.offerings()).allSatisfy(o -> {
            assertThat(o.capacityType()).isEqualTo("on-demand");
            assertThat(o.pricePerHour()).isEqualTo(0.15);
            assertThat(o.listPrice()).as("no public price: the overlay's estimate is billed").isEqualTo(0.15);
            assertThat(o.available()).isTrue();
        });
    }

    /** docs nodeoverlays.md: without a preview-shaped overlay (or for a type EC2 does not list) nothing is enabled. */
    @Test
    void withoutAPreviewOverlayOrForAnUnknownTypeNothingIsEnabled() {
        assertThat(types(config())).extracting(InstanceType::name).doesNotContain("m10g.xlarge");
        String[] p = new String[1];
        NodeOverlay relative = new NodeOverlay("relative", List.of(Requirement.of(WellKnownLabels.INSTANCE_TYPE,
                Operator.In, "m10g.xlarge")), PriceChange.adjustment("-10%", p), Map.of(), 1);
        assertThat(types(config(relative))).extracting(InstanceType::name).doesNotContain("m10g.xlarge");
        assertThat(types(config(overlay("typo", "0.15", "m99z.large")))).extracting(InstanceType::name)
                .doesNotContain("m99z.large");
        assertThat(stub.requests("DescribeInstanceTypes")).hasSize(1);
    }
}
