package dev.gantry.config.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks the overhead model against the allocatable figures Karpenter's own generated reference page lists for every
 * type (AL2023, default kubelet, no block device mappings): {@code catalog/karpenter-allocatable-al2023.json}.
 *
 * <p>Deliberate differences would be listed in {@link #ALLOWED_DIFFERENCES} with the reason; there are none: the
 * model reproduces every figure exactly.
 *
 * <p>The page lists the A1 family too, though Karpenter's launch path leaves A1 out under AL2023 (AL2023 does not boot
 * on it) and so does Gantry's catalogue; their figures are checked under AL2, whose overhead rules are AL2023's.
 */
class AllocatableAgreementTest {
    private static final long MI = 1L << 20;

    /** Types whose figures we knowingly compute differently, with why. Empty: every type agrees exactly. */
    private static final Map<String, String> ALLOWED_DIFFERENCES = Map.of();

    private static Map<String, JsonNode> reference;
    private static Map<String, InstanceType> ours;

    @BeforeAll
    static void load() throws Exception {
        try (InputStream in = AllocatableAgreementTest.class.getResourceAsStream("/catalog/karpenter-allocatable-al2023.json")) {
            JsonNode root = new ObjectMapper().readTree(in);
            reference = new TreeMap<>();
            root.properties().forEach(e -> reference.put(e.getKey(), e.getValue()));
        }
        var catalog = BuiltInCatalog.load("us-east-1");
        ours = catalog.instanceTypes(CatalogFixtures.al2023())
                .stream().collect(Collectors.toMap(InstanceType::name, Function.identity()));
        catalog.instanceTypes(CatalogFixtures.nodeClass("AL2", dev.gantry.core.model.NodeClass.Kubelet.DEFAULT)).stream()
                .filter(t -> t.name().startsWith("a1.")).forEach(t -> a1UnderAl2.put(t.name(), t));
    }

    private static final Map<String, InstanceType> a1UnderAl2 = new TreeMap<>();

    @Test
    void everyReferenceTypeIsInTheCatalogueA1OnlyUnderOtherFamiliesThanAl2023() {
        assertThat(reference).hasSize(1363);
        Set<String> a1 = reference.keySet().stream().filter(n -> n.startsWith("a1.")).collect(Collectors.toSet());
        assertThat(a1).hasSize(6);
        assertThat(ours.keySet()).containsAll(reference.keySet().stream().filter(n -> !a1.contains(n)).toList())
                .doesNotContainAnyElementsOf(a1);
        assertThat(a1UnderAl2.keySet()).containsExactlyInAnyOrderElementsOf(a1);
    }

    @Test
    void allocatableAgreesWithKarpenterForEveryReferenceType() {
        List<String> mismatches = new ArrayList<>();
        long maxCpu = 0, maxMemMiB = 0, maxPods = 0, maxEph = 0;
        int exact = 0;
        for (var e : reference.entrySet()) {
            Resources a = ours.getOrDefault(e.getKey(), a1UnderAl2.get(e.getKey())).allocatable();
            JsonNode want = e.getValue();
            long dCpu = Math.abs(a.cpuMillis() - want.get("cpuMillis").asLong());
            long dMem = Math.abs(a.memoryBytes() - want.get("memoryMiB").asLong() * MI);
            long dPods = Math.abs(a.pods() - want.get("pods").asLong());
            long dEph = Math.abs(a.ephemeralBytes() - Quantity.parse(want.get("ephemeralStorage").asText()).toUnits());
            maxCpu = Math.max(maxCpu, dCpu);
            maxMemMiB = Math.max(maxMemMiB, (dMem + MI - 1) / MI);
            maxPods = Math.max(maxPods, dPods);
            maxEph = Math.max(maxEph, dEph);
            if (dCpu == 0 && dMem == 0 && dPods == 0 && dEph == 0) {
                exact++;
            } else if (!ALLOWED_DIFFERENCES.containsKey(e.getKey())) {
                mismatches.add(e.getKey() + ": ours " + a + ", Karpenter's " + want);
            }
        }
        System.out.printf("allocatable agreement: %d/%d exact; largest difference cpu %dm, memory %dMi, pods %d, "
                + "ephemeral-storage %d bytes%n", exact, reference.size(), maxCpu, maxMemMiB, maxPods, maxEph);
        assertThat(mismatches).isEmpty();
        assertThat(exact + ALLOWED_DIFFERENCES.size()).isEqualTo(reference.size());
    }

    @Test
    void allowlistNamesOnlyReferenceTypes() {
        assertThat(reference.keySet()).containsAll(ALLOWED_DIFFERENCES.keySet());
        assertThat(Set.copyOf(ALLOWED_DIFFERENCES.values())).doesNotContain("");
    }
}
