package dev.gantry.core.catalog.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * NodeOverlay merging, each rule checked against Karpenter v1.14.1: kubernetes-sigs/karpenter
 * {@code pkg/apis/v1alpha1/nodeoverlay.go} (API, ordering), {@code pkg/controllers/nodeoverlay/controller.go} (matching,
 * conflicts, all-or-nothing) and {@code store.go} (per-offering prices, capacity), {@code pkg/cloudprovider/types.go}
 * ({@code AdjustedPrice}), and the docs' {@code concepts/nodeoverlays.md} (higher weight wins per field).
 */
class OverlayResolutionTest {
    static final NodeClass NC = new NodeClass("default", "karpenter.k8s.aws", "EC2NodeClass", "AL2023", List.of(), List.of(),
            List.of(), "KarpenterNodeRole", null, null, Map.of(), List.of(), null, null, null, null, null);

    static InstanceType type(String name, String arch, double od) {
        Map<String, String> labels = Map.of(WellKnownLabels.ARCH, arch, WellKnownLabels.OS, "linux",
                WellKnownLabels.INSTANCE_FAMILY, name.substring(0, name.indexOf('.')));
        List<Offering> offerings = new ArrayList<>();
        for (String z : List.of("z-a", "z-b")) {
            offerings.add(Offering.of(z, "on-demand", od));
            offerings.add(Offering.of(z, "spot", od * 0.4));
        }
        return new InstanceType(name, labels, new Resources(2000, 8L << 30, 0, 110, Map.of()), Resources.ZERO, offerings);
    }

    static NodePool pool(String name, Map<String, String> labels) {
        NodePool.Template t = new NodePool.Template(labels, Map.of(), List.of(), List.of(), List.of(),
                new NodePool.NodeClassRef(null, null, "default"), Optional.of(Duration.ofHours(720)), Optional.empty());
        return new NodePool(name, Map.of(), t, null, Map.of(), null, null);
    }

    static final NodePool WEB = pool("web", Map.of("team", "web"));
    static final NodePool BATCH = pool("batch", Map.of());
    static final List<InstanceType> TYPES = List.of(type("m7i.large", "amd64", 0.1), type("m7g.large", "arm64", 0.08));

    static NodeOverlay overlay(String name, int weight, String price, Map<String, Long> capacity, Requirement... reqs) {
        String[] p = new String[1];
        PriceChange change = price == null ? null
                : price.startsWith("+") || price.startsWith("-") ? PriceChange.adjustment(price, p) : PriceChange.price(price, p);
        return new NodeOverlay(name, List.of(reqs), change, capacity, weight);
    }

    static OverlayResolution resolve(NodeOverlay... overlays) {
        Map<NodePool, OverlayResolution.PoolTypes> pools = new LinkedHashMap<>();
        pools.put(WEB, new OverlayResolution.PoolTypes(NC, TYPES));
        pools.put(BATCH, new OverlayResolution.PoolTypes(NC, TYPES));
        return OverlayResolution.resolve(List.of(overlays), pools, PreviewShapes.NONE);
    }

    static double price(List<InstanceType> types, String type, String zone, String capacityType) {
        return types.stream().filter(t -> t.name().equals(type)).findFirst().orElseThrow().offerings().stream()
                .filter(o -> o.zone().equals(zone) && o.capacityType().equals(capacityType)).findFirst().orElseThrow().pricePerHour();
    }

    static Requirement req(String key, String... values) {
        return Requirement.of(key, Operator.In, values);
    }

    /** nodeoverlay.go: an empty requirements list selects every instance type. */
    @Test
    void emptyRequirementsSelectEveryType() {
        List<InstanceType> out = resolve(overlay("all", 1, "-50%", null)).apply(WEB, TYPES);
        assertThat(price(out, "m7i.large", "z-a", "on-demand")).isCloseTo(0.05, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(price(out, "m7g.large", "z-b", "spot")).isCloseTo(0.016, org.assertj.core.data.Offset.offset(1e-9));
    }

    /** The Graviton case: an arch requirement selects only arm64 types; the others keep their list price. */
    @Test
    void requirementsSelectByInstanceLabels() {
        List<InstanceType> out = resolve(overlay("graviton", 10, "-20%", null, req(WellKnownLabels.ARCH, "arm64"))).apply(WEB, TYPES);
        assertThat(price(out, "m7g.large", "z-a", "on-demand")).isCloseTo(0.064, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(price(out, "m7i.large", "z-a", "on-demand")).isEqualTo(0.1);
    }

    /** controller.go getOverlaidOfferings: a capacity-type or zone requirement selects offerings, not the whole type. */
    @Test
    void offeringRequirementsChangeOnlyThoseOfferings() {
        List<InstanceType> out = resolve(overlay("spot", 1, "+0.01", null, req(WellKnownLabels.CAPACITY_TYPE, "spot"),
                req(WellKnownLabels.ZONE, "z-b"))).apply(WEB, TYPES);
        assertThat(price(out, "m7i.large", "z-b", "spot")).isCloseTo(0.05, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(price(out, "m7i.large", "z-a", "spot")).isCloseTo(0.04, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(price(out, "m7i.large", "z-b", "on-demand")).isEqualTo(0.1);
    }

    /** controller.go: karpenter.sh/nodepool and the pool's template labels are matched too; a label no one has is not. */
    @Test
    void poolNameAndTemplateLabelsSelectPools() {
        OverlayResolution r = resolve(overlay("web-only", 1, "0.01", null, req("team", "web")),
                overlay("batch-only", 2, "0.02", null, req(WellKnownLabels.NODEPOOL, "batch")),
                overlay("nobody", 3, "0.03", null, req("tier", "gold")));
        assertThat(price(r.apply(WEB, TYPES), "m7i.large", "z-a", "on-demand")).isEqualTo(0.01);
        assertThat(price(r.apply(BATCH, TYPES), "m7i.large", "z-a", "on-demand")).isEqualTo(0.02);
        assertThat(r.invalid()).isEmpty();
    }

    /** Docs concepts/nodeoverlays.md, store.go: the higher weight sets the price of an offering both select. */
    @Test
    void higherWeightWinsThePrice() {
        OverlayResolution r = resolve(overlay("low", 5, "0.5", null), overlay("high", 50, "0.02", null, req(WellKnownLabels.ARCH, "arm64")));
        List<InstanceType> out = r.apply(WEB, TYPES);
        assertThat(price(out, "m7g.large", "z-a", "on-demand")).isEqualTo(0.02);
        assertThat(price(out, "m7i.large", "z-a", "on-demand")).isEqualTo(0.5);
    }

    /**
     * controller.go validateAndUpdateInstanceTypeOverrides and store.go isOfferingUpdateConflicting: two overlays of
     * the same weight on one offering conflict; the one taken second (the earlier name: names are taken in reverse
     * order) is invalid and applies nowhere, not even where it would not conflict.
     */
    @Test
    void aSameWeightConflictInvalidatesTheOverlayEverywhere() {
        OverlayResolution r = resolve(overlay("b-web", 7, "0.3", null, req("team", "web")), overlay("a-all", 7, "0.2", null));
        assertThat(r.invalid()).containsOnlyKeys("a-all");
        assertThat(r.invalid().get("a-all")).contains("weight 7").contains("NodePool web");
        assertThat(price(r.apply(WEB, TYPES), "m7i.large", "z-a", "on-demand")).isEqualTo(0.3);
        assertThat(price(r.apply(BATCH, TYPES), "m7i.large", "z-a", "on-demand")).isEqualTo(0.1); // a-all applied nowhere
    }

    /** Same weight on disjoint offerings is no conflict: both apply. */
    @Test
    void sameWeightOnDisjointOfferingsIsNoConflict() {
        OverlayResolution r = resolve(overlay("spot", 7, "0.01", null, req(WellKnownLabels.CAPACITY_TYPE, "spot")),
                overlay("od", 7, "0.2", null, req(WellKnownLabels.CAPACITY_TYPE, "on-demand")));
        assertThat(r.invalid()).isEmpty();
        assertThat(price(r.apply(WEB, TYPES), "m7i.large", "z-a", "spot")).isEqualTo(0.01);
        assertThat(price(r.apply(WEB, TYPES), "m7i.large", "z-a", "on-demand")).isEqualTo(0.2);
    }

    /** store.go updateInstanceTypeCapacity / isCapacityUpdateConflicting: capacity maps merge; the same resource at the same weight conflicts. */
    @Test
    void capacityMapsMergeHigherWeightWinsPerResourceAndSameWeightConflicts() {
        OverlayResolution r = resolve(overlay("hugepages", 10, null, Map.of("hugepages-2Mi", 100L, "example.com/nic", 1L)),
                overlay("nic", 20, null, Map.of("example.com/nic", 4L), req(WellKnownLabels.ARCH, "arm64")));
        InstanceType g = r.apply(WEB, TYPES).stream().filter(t -> t.name().equals("m7g.large")).findFirst().orElseThrow();
        assertThat(g.capacity().get("example.com/nic")).isEqualTo(4);
        assertThat(g.capacity().get("hugepages-2Mi")).isEqualTo(100);
        assertThat(g.capacity().cpuMillis()).isEqualTo(2000);
        assertThat(g.offerings()).isEqualTo(TYPES.get(1).offerings()); // capacity only: prices untouched

        OverlayResolution clash = resolve(overlay("x", 10, null, Map.of("example.com/nic", 1L)),
                overlay("y", 10, null, Map.of("example.com/nic", 2L)));
        assertThat(clash.invalid()).containsOnlyKeys("x");
    }

    /** types.go AdjustedPrice: an absolute price, a signed amount, a percentage; never below 0 (-100% is free). */
    @Test
    void priceChangesFollowKarpentersArithmetic() {
        String[] p = new String[1];
        assertThat(PriceChange.price("0.25", p).apply(9)).isEqualTo(0.25);
        assertThat(PriceChange.adjustment("+0.5", p).apply(1)).isEqualTo(1.5);
        assertThat(PriceChange.adjustment("-2", p).apply(1)).isEqualTo(0);
        assertThat(PriceChange.adjustment("+10%", p).apply(2)).isCloseTo(2.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(PriceChange.adjustment("-100%", p).apply(2)).isEqualTo(0);
        // nodeoverlay.go's patterns: a percentage needs a sign, and no discount beyond -100%.
        assertThat(PriceChange.adjustment("10%", p)).isNull();
        assertThat(PriceChange.adjustment("-101%", p)).isNull();
        assertThat(PriceChange.adjustment("-150%", p)).isNull();
        assertThat(PriceChange.price("-1", p)).isNull();
        assertThat(PriceChange.price("$1", p)).isNull();
    }

    /**
     * v1.14 preview types: one instance-type In requirement and an absolute price enable a type the catalogue lacks,
     * when its shape is known (live: EC2). Offline there is no shape and nothing is added.
     */
    @Test
    void previewTypesNeedAShape() {
        NodeOverlay preview = overlay("m9g", 1, "0.07", null, req(WellKnownLabels.INSTANCE_TYPE, "m9g.large"));
        assertThat(preview.previewTypes()).containsExactly("m9g.large");
        assertThat(resolve(preview).apply(WEB, TYPES)).extracting(InstanceType::name).containsExactly("m7i.large", "m7g.large");

        PreviewShapes ec2 = (name, nc) -> name.equals("m9g.large") ? Optional.of(type("m9g.large", "arm64", 0)) : Optional.empty();
        Map<NodePool, OverlayResolution.PoolTypes> pools = Map.of(WEB, new OverlayResolution.PoolTypes(NC, TYPES));
        List<InstanceType> out = OverlayResolution.resolve(List.of(preview), pools, ec2).apply(WEB, TYPES);
        assertThat(out).extracting(InstanceType::name).containsExactly("m7i.large", "m7g.large", "m9g.large");
        assertThat(price(out, "m9g.large", "z-b", "spot")).isEqualTo(0.07);

        // A relative price is not enough (the type has no list price to adjust).
        assertThat(overlay("rel", 1, "-10%", null, req(WellKnownLabels.INSTANCE_TYPE, "m9g.large")).previewTypes()).isEmpty();
    }

    @Test
    void noOverlaysLeaveTheTypesAsTheyAre() {
        assertThat(OverlayResolution.NONE.apply(WEB, TYPES)).isSameAs(TYPES);
    }
}
