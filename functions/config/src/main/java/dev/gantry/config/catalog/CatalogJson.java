package dev.gantry.config.catalog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gantry.core.catalog.InstanceTypeSpec;
import dev.gantry.core.catalog.PriceBook;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the catalogue's JSON files (the formats of {@code catalog/README.md}) with Jackson's streaming parser, which
 * keeps a cold start well under the time a data-binding {@code ObjectMapper} takes to warm up. Unknown fields are
 * skipped, so newer data files with more fields still load.
 */
final class CatalogJson {
    private static final JsonFactory FACTORY = new JsonFactory();
    /**
     * The families whose processors support nested virtualization, which the catalogue data does not record: "Nested
     * virtualization is supported only on 8th generation Intel-based instance types (c8i, m8i, r8i, and their flex
     * variants)" (EC2 API reference, {@code LaunchTemplateCpuOptionsRequest}). Bare metal is left out: it needs no
     * CPU option to run a hypervisor. A type described live reads its {@code ProcessorInfo.SupportedFeatures} instead.
     */
    static final java.util.Set<String> NESTED_VIRTUALIZATION_FAMILIES = java.util.Set.of("c8i", "c8i-flex", "m8i",
            "m8i-flex", "r8i", "r8i-flex");

    private CatalogJson() {
    }

    /** The types of {@code instance-types.json}: those AWS offers, and the names of those it has retired. */
    record Specs(List<InstanceTypeSpec> current, List<String> retired) {
    }

    /**
     * Parses {@code instance-types.json}: a JSON array of one object per instance type. A type whose specs come only
     * from an older release's copy of Karpenter's generated instance-types page ({@code specsFrom} {@code docs-v1.13},
     * {@code docs-v1.0}, …) is one the current page, built from live DescribeInstanceTypes, no longer lists: AWS has
     * retired it (g3, p2, p3, f1, …), so it is left out and only its name kept.
     */
    static Specs readSpecs(InputStream in) throws IOException {
        List<InstanceTypeSpec> out = new ArrayList<>(1500);
        List<String> retired = new ArrayList<>();
        try (JsonParser p = FACTORY.createParser(in)) {
            expect(p.nextToken(), JsonToken.START_ARRAY, p);
            while (p.nextToken() == JsonToken.START_OBJECT) {
                Map<String, Object> f = fields(p);
                Object from = f.get("specsFrom");
                if (from instanceof String page && page.startsWith("docs-v")) {
                    retired.add((String) f.get("name"));
                } else {
                    out.add(readSpec(f, p));
                }
            }
        }
        return new Specs(out, retired);
    }

    private static Map<String, Object> fields(JsonParser p) throws IOException {
        Map<String, Object> f = new TreeMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            switch (t) {
                case VALUE_STRING -> f.put(name, p.getText());
                case VALUE_NUMBER_INT -> f.put(name, p.getLongValue());
                case VALUE_TRUE, VALUE_FALSE -> f.put(name, t == JsonToken.VALUE_TRUE);
                default -> p.skipChildren(); // arrays such as "sources" are provenance, not facts
            }
        }
        return f;
    }

    private static InstanceTypeSpec readSpec(Map<String, Object> f, JsonParser p) throws IOException {
        String name = (String) f.get("name");
        if (name == null) {
            throw new IOException("instance type without a name near " + p.currentLocation());
        }
        return InstanceTypeSpec.builder(name)
                .family(str(f, "family")).category(str(f, "category")).generation(integer(f, "generation"))
                .size(str(f, "size")).vcpu(integer(f, "vcpu")).memoryMiB(lng(f, "memoryMiB")).arch(str(f, "arch"))
                .cpuManufacturer(str(f, "cpuManufacturer"))
                .cpuSustainedClockSpeedMhz(integer(f, "cpuSustainedClockSpeedMhz"))
                .gpuCount(integer(f, "gpuCount")).gpuName(str(f, "gpuName")).gpuManufacturer(str(f, "gpuManufacturer"))
                .gpuMemoryMiB(lng(f, "gpuMemoryMiB")).acceleratorCount(integer(f, "acceleratorCount"))
                .acceleratorName(str(f, "acceleratorName")).acceleratorManufacturer(str(f, "acceleratorManufacturer"))
                .neuronCoreCount(integer(f, "neuronCoreCount")).maxPods(integer(f, "maxPods"))
                .eniCount(integer(f, "eniCount")).ipv4PerEni(integer(f, "ipv4PerEni"))
                .branchEniCount(integer(f, "branchEniCount")).trunkingCompatible(bool(f, "trunkingCompatible"))
                .efaMaxInterfaces(integer(f, "efaMaxInterfaces"))
                .networkBandwidthMbps(integer(f, "networkBandwidthMbps"))
                .ebsBandwidthMbps(integer(f, "ebsBandwidthMbps")).localNvmeGB(lng(f, "localNvmeGB"))
                .hypervisor(str(f, "hypervisor")).bareMetal(bool(f, "bareMetal")).burstable(bool(f, "burstable"))
                .flex(bool(f, "flex")).encryptionInTransitSupported((Boolean) f.get("encryptionInTransitSupported"))
                .nestedVirtualization(f.containsKey("nestedVirtualization") ? bool(f, "nestedVirtualization")
                        : NESTED_VIRTUALIZATION_FAMILIES.contains(str(f, "family")) && !bool(f, "bareMetal"))
                .build();
    }

    /** Parses {@code prices-on-demand.json}: {@code regions} (region → type → price) and {@code currency}. */
    static PriceBook readPrices(InputStream in) throws IOException {
        Map<String, Map<String, Double>> regions = new TreeMap<>();
        Map<String, String> currency = new TreeMap<>();
        try (JsonParser p = FACTORY.createParser(in)) {
            expect(p.nextToken(), JsonToken.START_OBJECT, p);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "regions" -> {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String region = p.currentName();
                            expect(p.nextToken(), JsonToken.START_OBJECT, p);
                            Map<String, Double> prices = new TreeMap<>();
                            while (p.nextToken() == JsonToken.FIELD_NAME) {
                                String type = p.currentName();
                                p.nextToken();
                                prices.put(type, p.getDoubleValue());
                            }
                            regions.put(region, prices);
                        }
                    }
                    case "currency" -> {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String region = p.currentName();
                            p.nextToken();
                            currency.put(region, p.getText());
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        }
        return PriceBook.of(regions, currency);
    }

    private static void expect(JsonToken actual, JsonToken wanted, JsonParser p) throws IOException {
        if (actual != wanted) {
            throw new IOException("expected " + wanted + " but found " + actual + " at " + p.currentLocation());
        }
    }

    private static String str(Map<String, Object> f, String k) {
        return (String) f.get(k);
    }

    private static Integer integer(Map<String, Object> f, String k) {
        Object v = f.get(k);
        return v == null ? null : Math.toIntExact((Long) v);
    }

    private static Long lng(Map<String, Object> f, String k) {
        return (Long) f.get(k);
    }

    private static boolean bool(Map<String, Object> f, String k) {
        return Boolean.TRUE.equals(f.get(k));
    }
}
