package dev.gantry.core.catalog;

import static dev.gantry.core.catalog.Fixtures.nodeClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CatalogTest {
    private static final PriceBook PRICES = PriceBook.of(Map.of("us-east-1",
            Map.of("m5.large", 0.096, "c7g.xlarge", 0.145, "p4d.24xlarge", 21.9576)));
    private static final List<Zone> ZONES = List.of(new Zone("us-east-1a", "use1-az1"), new Zone("us-east-1b", "use1-az2"));
    private static final List<InstanceTypeSpec> SPECS = List.of(Fixtures.m5Large(), Fixtures.c7gXlarge(), Fixtures.p4d(),
            Fixtures.inf2Xlarge(), Fixtures.noSpecs("mac1.metal"), Fixtures.noSpecs("u-6tb1.metal"));

    private final Catalog catalog = Catalog.of(SPECS, PRICES, DeterministicSpotPriceModel.withDefaultSeed(), "us-east-1", ZONES);

    private InstanceType type(Catalog c, String name) {
        return c.instanceTypes(nodeClass("AL2023")).stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void excludesAndCountsTypesWithoutSpecs() {
        assertThat(catalog.excludedCount()).isEqualTo(2);
        assertThat(catalog.excludedNames()).containsExactly("mac1.metal", "u-6tb1.metal");
        assertThat(catalog.instanceTypes(nodeClass("AL2023"))).extracting(InstanceType::name)
                .containsExactly("c7g.xlarge", "inf2.xlarge", "m5.large", "p4d.24xlarge");
    }

    @Test
    void offersEveryZoneOnDemandAndSpotForPricedTypes() {
        InstanceType m5 = type(catalog, "m5.large");
        assertThat(m5.offerings()).hasSize(4);
        assertThat(m5.offerings()).filteredOn(o -> o.capacityType().equals("on-demand"))
                .extracting(Offering::pricePerHour).containsOnly(0.096);
        assertThat(m5.offerings()).filteredOn(o -> o.capacityType().equals("spot"))
                .allSatisfy(o -> assertThat(o.pricePerHour()).isBetween(0.096 * 0.2, 0.096 * 0.45));
        assertThat(m5.offerings()).extracting(Offering::zoneId).containsOnly("use1-az1", "use1-az2");
        assertThat(m5.requirements().get(WellKnownLabels.ZONE_ID).has("use1-az2")).isTrue();
    }

    @Test
    void typesWithoutAPriceHaveNoOfferings() {
        assertThat(type(catalog, "inf2.xlarge").offerings()).isEmpty();
    }

    @Test
    void marksNamedOfferingsUnavailableAndDropsThemFromRequirements() {
        Catalog c = catalog.withUnavailable(Set.of(new OfferingKey("m5.large", "us-east-1a", "spot"),
                new OfferingKey("m5.large", "us-east-1b", "spot")));
        InstanceType m5 = type(c, "m5.large");
        assertThat(m5.offerings()).filteredOn(o -> !o.available()).hasSize(2)
                .allSatisfy(o -> assertThat(o.capacityType()).isEqualTo("spot"));
        Requirements spotOnly = Requirements.of(Requirement.of(WellKnownLabels.CAPACITY_TYPE, Operator.In, "spot"));
        assertThat(m5.requirements().compatible(spotOnly)).isFalse();
        assertThat(type(catalog, "m5.large").requirements().compatible(spotOnly)).isTrue();
    }

    @Test
    void podRequiringAGpuLabelConflictsWithATypeWithoutGpus() {
        Requirements wantsA100 = Requirements.of(Requirement.of(WellKnownLabels.INSTANCE_GPU_NAME, Operator.In, "a100"));
        assertThat(type(catalog, "m5.large").requirements().compatible(wantsA100)).isFalse();
        assertThat(type(catalog, "p4d.24xlarge").requirements().compatible(wantsA100)).isTrue();
    }

    @Test
    void cachesPerKubeletAndBlockDeviceSettings() {
        var first = catalog.instanceTypes(nodeClass("AL2023"));
        assertThat(catalog.instanceTypes(nodeClass("AL2023"))).isSameAs(first);
        var other = catalog.instanceTypes(nodeClass("AL2023", Fixtures.kubelet(110, null)));
        assertThat(other).isNotSameAs(first);
        assertThat(other.get(0).capacity().pods()).isEqualTo(110);
    }

    @Test
    void windowsLeavesOutArmTypes() {
        assertThat(catalog.instanceTypes(nodeClass("Windows2022"))).extracting(InstanceType::name)
                .doesNotContain("c7g.xlarge").contains("m5.large");
    }

    /**
     * Regression: AL2023 does not boot on A1 (Karpenter's compatibility check makes its offerings unavailable), yet
     * A1, the cheapest arm64 vCPU in the catalogue, was chosen for arm64 pools under AL2023: nodes that never join.
     */
    @Test
    void al2023LeavesOutTheA1FamilyOtherFamiliesKeepIt() {
        InstanceTypeSpec a1 = InstanceTypeSpec.builder("a1.large").basics(2, 4096, "arm64", 29).eniCount(3).ipv4PerEni(10)
                .cpuManufacturer("aws").hypervisor("nitro").build();
        Catalog withA1 = Catalog.of(List.of(a1, Fixtures.c7gXlarge()), PriceBook.of(Map.of("us-east-1",
                Map.of("a1.large", 0.051, "c7g.xlarge", 0.145))), DeterministicSpotPriceModel.withDefaultSeed(), "us-east-1", ZONES);
        assertThat(withA1.instanceTypes(nodeClass("AL2023"))).extracting(InstanceType::name).containsExactly("c7g.xlarge");
        assertThat(withA1.instanceTypes(nodeClass(null))).as("no family: AL2023's traits").extracting(InstanceType::name)
                .containsExactly("c7g.xlarge");
        for (String family : List.of("AL2", "Bottlerocket", "Custom")) {
            assertThat(withA1.instanceTypes(nodeClass(family))).as(family).extracting(InstanceType::name)
                    .containsExactly("a1.large", "c7g.xlarge");
        }
        assertThat(withA1.shape(a1, nodeClass("AL2023"), List.of())).as("a preview type is judged alike").isEmpty();
    }

    /**
     * Connection tracking launches on Nitro only, and each IPv4 prefix takes an address slot of the primary interface:
     * types EC2 would refuse are not offered (they were, so a plan could choose a Xen type whose launch fails).
     */
    @Test
    void primaryInterfaceSettingsLeaveOutTypesEc2WouldRefuse() {
        InstanceTypeSpec xen = InstanceTypeSpec.builder("m4.large").basics(2, 8192, "amd64", 20).eniCount(2).ipv4PerEni(10)
                .cpuManufacturer("intel").hypervisor("xen").build();
        InstanceTypeSpec metal = InstanceTypeSpec.builder("m5.metal").basics(96, 393216, "amd64", 737).eniCount(15)
                .ipv4PerEni(50).cpuManufacturer("intel").bareMetal(true).build();
        InstanceTypeSpec nano = InstanceTypeSpec.builder("t3.nano").basics(2, 512, "amd64", 4).eniCount(2).ipv4PerEni(2)
                .cpuManufacturer("intel").hypervisor("nitro").build();
        Catalog c = Catalog.of(List.of(xen, metal, nano, Fixtures.m5Large()), PriceBook.of(Map.of("us-east-1",
                Map.of("m4.large", 0.1, "m5.metal", 4.608, "t3.nano", 0.0052, "m5.large", 0.096))),
                DeterministicSpotPriceModel.withDefaultSeed(), "us-east-1", ZONES);
        NodeClass plain = nodeClass("AL2023");
        assertThat(c.instanceTypes(plain)).extracting(InstanceType::name)
                .containsExactlyInAnyOrder("m4.large", "m5.metal", "t3.nano", "m5.large");
        NodeClass.ConnectionTracking tracking = new NodeClass.ConnectionTracking(3600, null, null);
        assertThat(c.instanceTypes(plain.withNetworking(new NodeClass.Networking(null, tracking))))
                .as("Nitro only; bare metal reports no hypervisor").extracting(InstanceType::name)
                .containsExactlyInAnyOrder("t3.nano", "m5.large");
        assertThat(c.instanceTypes(plain.withNetworking(new NodeClass.Networking(1, null)))).extracting(InstanceType::name)
                .containsExactlyInAnyOrder("m4.large", "m5.metal", "t3.nano", "m5.large");
        assertThat(c.instanceTypes(plain.withNetworking(new NodeClass.Networking(2, null))))
                .as("t3.nano's interface has 2 addresses: the primary and one prefix").extracting(InstanceType::name)
                .containsExactlyInAnyOrder("m4.large", "m5.metal", "m5.large");
        assertThat(c.shape(xen, plain.withNetworking(new NodeClass.Networking(null, tracking)), List.of()))
                .as("a preview type is judged alike").isEmpty();
    }

    /** {@code cpuOptions.nestedVirtualization: enabled} offers only types whose processor supports it. */
    @Test
    void nestedVirtualizationLeavesOutTypesWhoseProcessorLacksIt() {
        InstanceTypeSpec c8i = InstanceTypeSpec.builder("c8i.large").basics(2, 4096, "amd64", 29).eniCount(3).ipv4PerEni(10)
                .cpuManufacturer("intel").hypervisor("nitro").nestedVirtualization(true).build();
        Catalog c = Catalog.of(List.of(c8i, Fixtures.m5Large()), PriceBook.of(Map.of("us-east-1",
                Map.of("c8i.large", 0.094, "m5.large", 0.096))), DeterministicSpotPriceModel.withDefaultSeed(), "us-east-1", ZONES);
        NodeClass plain = nodeClass("AL2023");
        assertThat(c.instanceTypes(plain.withCpuOptions(new NodeClass.CpuOptions("enabled")))).extracting(InstanceType::name)
                .containsExactly("c8i.large");
        assertThat(c.instanceTypes(plain.withCpuOptions(new NodeClass.CpuOptions("disabled")))).extracting(InstanceType::name)
                .containsExactlyInAnyOrder("c8i.large", "m5.large");
    }

    @Test
    void regionWithoutPricesFallsBackToUsEast1WithAWarning() {
        Catalog seoul = Catalog.of(SPECS, PRICES, DeterministicSpotPriceModel.withDefaultSeed(), "ap-northeast-2",
                List.of(Zone.of("ap-northeast-2a")));
        assertThat(seoul.warnings()).singleElement().asString().contains("ap-northeast-2").contains("us-east-1");
        assertThat(type(seoul, "m5.large").offerings()).extracting(Offering::pricePerHour).contains(0.096);
        assertThat(type(seoul, "m5.large").labels()).containsEntry(WellKnownLabels.REGION, "ap-northeast-2");
        assertThat(catalog.warnings()).isEmpty();
    }

    @Test
    void allocatableIsCapacityLessOverhead() {
        InstanceType m5 = type(catalog, "m5.large");
        assertThat(m5.allocatable()).isEqualTo(m5.capacity().minus(m5.overhead()));
        assertThat(m5.allocatable().cpuMillis()).isEqualTo(1930);
    }

    @Test
    void rejectsRepeatedZonesAndNoZones() {
        var spot = DeterministicSpotPriceModel.withDefaultSeed();
        assertThatThrownBy(() -> Catalog.of(SPECS, PRICES, spot, "us-east-1", List.of())).hasMessageContaining("zone");
        assertThatThrownBy(() -> Catalog.of(SPECS, PRICES, spot, "us-east-1", List.of(Zone.of("a"), Zone.of("a"))))
                .hasMessageContaining("twice");
    }

    @Test
    void rejectsTwoSpecsWithOneName() {
        var spot = DeterministicSpotPriceModel.withDefaultSeed();
        assertThatThrownBy(() -> Catalog.of(List.of(Fixtures.m5Large(), Fixtures.m5Large()), PRICES, spot, "us-east-1", ZONES))
                .hasMessageContaining("m5.large");
    }

    @Test
    void aReplacementSpotModelSetsSpotPrices() {
        Catalog flat = Catalog.of(SPECS, PRICES, (type, zone, od) -> od / 2, "us-east-1", ZONES);
        assertThat(type(flat, "m5.large").offerings()).filteredOn(o -> o.capacityType().equals("spot"))
                .extracting(Offering::pricePerHour).containsOnly(0.048);
    }
}
