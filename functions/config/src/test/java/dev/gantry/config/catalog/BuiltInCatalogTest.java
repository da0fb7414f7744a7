package dev.gantry.config.catalog;

import static dev.gantry.core.requirements.WellKnownLabels.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeSpec;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Resources;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuiltInCatalogTest {
    private final Catalog useast1 = BuiltInCatalog.load("us-east-1");

    private InstanceType type(String name) {
        return useast1.instanceTypes(CatalogFixtures.al2023()).stream().filter(t -> t.name().equals(name))
                .findFirst().orElseThrow();
    }

    @Test
    void readsEveryCurrentTypeInTheDataAndExcludesThe53WithoutSpecs() {
        assertThat(BuiltInCatalog.specs()).hasSize(1416);
        assertThat(useast1.excludedCount()).isEqualTo(53);
        assertThat(useast1.excludedNames()).contains("mac1.metal", "c7g-flex.large", "u-6tb1.metal", "trn2.3xlarge");
        // 1,363 types, less the six of the A1 family that AL2023 does not boot.
        assertThat(useast1.instanceTypes(CatalogFixtures.al2023())).hasSize(1357);
        assertThat(useast1.instanceTypes(CatalogFixtures.nodeClass("AL2", dev.gantry.core.model.NodeClass.Kubelet.DEFAULT)))
                .hasSize(1363);
    }

    @Test
    void dropsTheTypesAwsRetiredThatKarpenterV114NoLongerLists() {
        List<String> names = useast1.instanceTypes(CatalogFixtures.al2023()).stream().map(InstanceType::name).toList();
        assertThat(names).doesNotContain("g3.4xlarge", "g3s.xlarge", "p2.xlarge", "p3.2xlarge", "f1.2xlarge",
                "dl1.24xlarge", "i3.metal", "u-9tb1.112xlarge");
        assertThat(names).contains("trn2.48xlarge", "p5.48xlarge", "c8g.large", "i3.large");
        assertThat(BuiltInCatalog.retiredNames()).hasSize(19).contains("g3.4xlarge", "p2.16xlarge", "p3.8xlarge");
    }

    /** The data does not record nested virtualization; EC2 documents it for c8i, m8i, r8i and their flex variants. */
    @Test
    void nestedVirtualizationIsMarkedOnTheFamiliesEc2DocumentsForIt() {
        java.util.function.Predicate<String> nested = n -> useast1.spec(n).orElseThrow().nestedVirtualization();
        assertThat(List.of("c8i.large", "m8i-flex.xlarge", "r8i.24xlarge")).allMatch(nested);
        assertThat(List.of("c8i.metal-48xl", "c8id.large", "m7i.large", "m5.large", "c8g.large")).noneMatch(nested);
    }

    @Test
    void parsesTheFilesOncePerJvm() {
        assertThat(BuiltInCatalog.specs()).isSameAs(BuiltInCatalog.specs());
        assertThat(BuiltInCatalog.load("us-east-1").specs().get(0)).isSameAs(useast1.specs().get(0));
    }

    @Test
    void parsingTheShippedFilesIsFast() throws Exception {
        long start = System.nanoTime();
        List<InstanceTypeSpec> specs;
        try (InputStream s = getClass().getResourceAsStream(BuiltInCatalog.SPECS_RESOURCE);
             InputStream p = getClass().getResourceAsStream(BuiltInCatalog.PRICES_RESOURCE)) {
            specs = CatalogJson.readSpecs(s).current();
            CatalogJson.readPrices(p);
        }
        long parseMs = (System.nanoTime() - start) / 1_000_000;
        start = System.nanoTime();
        BuiltInCatalog.load("us-east-2").instanceTypes(CatalogFixtures.al2023());
        long buildMs = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("catalogue: parse %d ms (%d specs), instance types for one NodeClass %d ms%n",
                parseMs, specs.size(), buildMs);
        // Generous bounds so a loaded CI machine does not flake; the measured figures are far lower.
        assertThat(parseMs).isLessThan(2_000);
        assertThat(buildMs).isLessThan(2_000);
    }

    @Test
    void m5LargeHasKarpentersLabelsAndPrice() {
        InstanceType m5 = type("m5.large");
        assertThat(m5.labels()).containsEntry(INSTANCE_CPU, "2").containsEntry(INSTANCE_MEMORY, "8192")
                .containsEntry(INSTANCE_CATEGORY, "m").containsEntry(INSTANCE_GENERATION, "5")
                .containsEntry(INSTANCE_CPU_MANUFACTURER, "intel").containsEntry(INSTANCE_HYPERVISOR, "nitro")
                .containsEntry(ARCH, "amd64").containsEntry(OS, "linux").containsEntry(REGION, "us-east-1");
        assertThat(m5.offerings()).filteredOn(o -> o.capacityType().equals("on-demand"))
                .extracting(Offering::pricePerHour).containsOnly(0.096);
        assertThat(m5.capacity().pods()).isEqualTo(29);
    }

    @Test
    void t3aNanoIsAnAmdBurstableWithFourPods() {
        InstanceType t = type("t3a.nano");
        assertThat(t.labels()).containsEntry(INSTANCE_CPU_MANUFACTURER, "amd").containsEntry(INSTANCE_MEMORY, "512")
                .containsEntry(INSTANCE_CATEGORY, "t").containsEntry(INSTANCE_SIZE, "nano");
        assertThat(t.capacity().pods()).isEqualTo(4);
    }

    @Test
    void c7gXlargeIsGraviton() {
        assertThat(type("c7g.xlarge").labels()).containsEntry(ARCH, "arm64").containsEntry(INSTANCE_CPU_MANUFACTURER, "aws")
                .containsEntry(INSTANCE_CPU, "4").containsEntry(INSTANCE_FAMILY, "c7g");
    }

    @Test
    void p4dHasEightA100sAsLabelsAndCapacity() {
        InstanceType p4d = type("p4d.24xlarge");
        assertThat(p4d.labels()).containsEntry(INSTANCE_GPU_NAME, "a100").containsEntry(INSTANCE_GPU_COUNT, "8")
                .containsEntry(INSTANCE_GPU_MANUFACTURER, "nvidia").containsEntry(INSTANCE_GPU_MEMORY, "40960")
                .containsEntry(INSTANCE_LOCAL_NVME, "8000");
        assertThat(p4d.capacity().extended()).containsEntry(Resources.NVIDIA_GPU, 8L);
        assertThat(p4d.capacity().pods()).isEqualTo(737);
    }

    @Test
    void inf2ExposesNeuronDevicesAndCores() {
        InstanceType inf2 = type("inf2.xlarge");
        assertThat(inf2.labels()).containsEntry(INSTANCE_ACCELERATOR_NAME, "inferentia2")
                .containsEntry(INSTANCE_ACCELERATOR_MANUFACTURER, "aws").containsEntry(INSTANCE_ACCELERATOR_COUNT, "1");
        assertThat(inf2.capacity().extended()).containsEntry(Resources.NEURON, 1L).containsEntry(Resources.NEURON_CORE, 2L);
    }

    @Test
    void bareMetalHasAnEmptyHypervisorLabel() {
        assertThat(type("m5.metal").labels()).containsEntry(INSTANCE_HYPERVISOR, "");
    }

    @Test
    void kubeletMaxPodsAndPodsPerCoreApplyToBuiltInTypes() {
        var nc = CatalogFixtures.nodeClass("AL2023", new dev.gantry.core.model.NodeClass.Kubelet(50, 10, Map.of(),
                Map.of(), Map.of(), Map.of(), Map.of(), List.of(), null, null, null));
        Map<String, Long> pods = new java.util.HashMap<>();
        useast1.instanceTypes(nc).forEach(t -> pods.put(t.name(), t.capacity().pods()));
        assertThat(pods).containsEntry("m5.large", 20L).containsEntry("m5.4xlarge", 50L).containsEntry("t3a.nano", 20L);
    }

    @Test
    void regionOutsideTheDataFallsBackToUsEast1PricesWithAWarning() {
        Catalog seoul = BuiltInCatalog.load("ap-northeast-2");
        assertThat(seoul.warnings()).singleElement().asString().contains("ap-northeast-2", "us-east-1");
        assertThat(BuiltInCatalog.load("us-gov-west-1").warnings()).isEmpty();
        assertThat(BuiltInCatalog.load("cn-north-1").currency()).isEqualTo("CNY");
    }

    @Test
    void defaultZonesAreTheRegionsAbc() {
        assertThat(BuiltInCatalog.defaultZones("eu-west-1")).containsExactly("eu-west-1a", "eu-west-1b", "eu-west-1c");
    }
}
