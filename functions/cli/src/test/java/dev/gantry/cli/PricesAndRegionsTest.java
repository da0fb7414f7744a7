package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.testing.AwsStub;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Prices and regions as a new user meets them in {@code plan}: a region without built-in prices is never priced
 * silently with us-east-1's, {@code --prices FILE} (both shapes) and {@code --live-prices} replace them, and regions
 * and zones are checked against the catalogue.
 */
class PricesAndRegionsTest {
    private static final String POOL = "../../samples/nodepools/seed001-v1.yaml";
    private static final String PODS = "../../samples/workloads/web.yaml";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    private JsonNode json() throws IOException {
        return JSON.readTree(out.toString());
    }

    @Test
    void aRegionWithoutBuiltInPricesIsSaidToBePricedFromUsEast1InTheTableAndTheJson() throws IOException {
        assertThat(run("plan", "--region", "eu-west-1", "--nodepools", POOL, "--pods", PODS)).as(err.toString()).isZero();
        assertThat(out.toString()).contains("prices: WARNING: no eu-west-1 prices in the built-in catalogue; priced with "
                + "us-east-1's built-in on-demand prices, which differ by region (give --prices FILE or --live-prices for eu-west-1's own)");

        out.getBuffer().setLength(0);
        run("plan", "--region", "eu-west-1", "--nodepools", POOL, "--pods", PODS, "--output", "json");
        JsonNode prices = json().get("prices").get(0);
        assertThat(prices.get("region").asText()).isEqualTo("eu-west-1");
        assertThat(prices.get("pricedFrom").asText()).isEqualTo("us-east-1");
        assertThat(prices.get("approximate").asBoolean()).isTrue();
    }

    @Test
    void usEast1IsPricedFromItsOwnBuiltInPrices() throws IOException {
        run("plan", "--nodepools", POOL, "--pods", PODS, "--output", "json");
        JsonNode prices = json().get("prices").get(0);
        assertThat(prices.get("approximate").asBoolean()).isFalse();
        assertThat(prices.get("source").asText()).isEqualTo("built-in");
    }

    @Test
    void aPriceFileInGantrysShapePricesTheRegionItNames(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("prices.json");
        // Every c/m/r type of the pool at 1.0 except one, far cheaper: the plan must launch only that one, at its price.
        StringBuilder types = new StringBuilder("\"m6a.2xlarge\": 0.05");
        for (String t : new String[] {"c6a.xlarge", "c6a.2xlarge", "m5.xlarge", "m6i.xlarge", "c5.xlarge", "r5.large"}) {
            types.append(", \"").append(t).append("\": 1.0");
        }
        Files.writeString(file, "{\"regions\": {\"eu-west-1\": {" + types + "}}, \"currency\": {\"eu-west-1\": \"USD\"}}");
        assertThat(run("plan", "--region", "eu-west-1", "--prices", file.toString(), "--nodepools", POOL, "--pods", PODS,
                "--output", "json")).as(err.toString()).isZero();
        JsonNode doc = json();
        assertThat(doc.get("nodeClaims")).allMatch(c -> c.get("instanceType").asText().equals("m6a.2xlarge")
                && c.get("pricePerHour").asDouble() == 0.05);
        JsonNode prices = doc.get("prices").get(0);
        assertThat(prices.get("approximate").asBoolean()).isFalse();
        assertThat(prices.get("source").asText()).isEqualTo("file " + file);
    }

    @Test
    void aPriceFileAsAwsPricingGetProductsPrintsItKeepsOnlyLinuxSharedTenancyPrices(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("get-products.json");
        Files.writeString(file, JSON.writeValueAsString(JSON.createObjectNode().put("FormatVersion", "aws_v1")
                .set("PriceList", JSON.createArrayNode()
                        .add(product("m6a.2xlarge", "eu-west-1", "Linux", "Shared", "0.0400000000"))
                        .add(product("m6a.2xlarge", "eu-west-1", "Windows", "Shared", "0.0100000000"))
                        .add(product("m6a.2xlarge", "eu-west-1", "Linux", "Dedicated", "0.0100000000"))
                        .add(product("c6a.xlarge", "eu-west-1", "Linux", "Shared", "2.0000000000")))));
        assertThat(run("plan", "--region", "eu-west-1", "--prices", file.toString(), "--nodepools", POOL, "--pods", PODS,
                "--output", "json")).as(err.toString()).isZero();
        JsonNode doc = json();
        // Only the two types the file prices can launch (a type without a price has no offering).
        assertThat(doc.get("nodeClaims")).isNotEmpty().allMatch(c -> c.get("instanceType").asText().equals("m6a.2xlarge")
                && c.get("pricePerHour").asDouble() == 0.04);
    }

    @Test
    void anUnreadablePriceFileIsOneLineAndExitTwo(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("p.json");
        Files.writeString(file, "{\"prices\": []}");
        assertThat(run("plan", "--prices", file.toString(), "--nodepools", POOL, "--pods", PODS)).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly("gantry plan: --prices " + file + ": expected {\"regions\": "
                + "{region: {instanceType: price}}} or the output of `aws pricing get-products` ({\"PriceList\": [...]})");
    }

    @Test
    void livePricesAreReadFromThePricingApiWithTheHandlersFilters() throws IOException {
        System.setProperty("aws.accessKeyId", "test");
        System.setProperty("aws.secretAccessKey", "test");
        try (AwsStub aws = AwsStub.start()) {
            int code = run("plan", "--live-prices", "--pricing-endpoint", aws.endpoint().toString(), "--nodepools", POOL,
                    "--pods", PODS, "--output", "json");
            assertThat(code).as(err.toString()).isZero();
            assertThat(aws.lastRequest("AWSPriceListService.GetProducts").body())
                    .contains("{\"Type\":\"TERM_MATCH\",\"Field\":\"regionCode\",\"Value\":\"us-east-1\"}")
                    .contains("\"Field\":\"operatingSystem\",\"Value\":\"Linux\"");
            JsonNode doc = json();
            // The stub prices m5.large, m5.xlarge, c5.large and m6g.large: the amd64 pool launches only m5/c5.
            assertThat(doc.get("nodeClaims")).isNotEmpty().allMatch(c -> c.get("instanceType").asText().matches("(m5|c5)\\..*"));
            assertThat(doc.get("prices").get(0).get("source").asText()).isEqualTo("Pricing API");
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
        }
    }

    @Test
    void livePricesWithoutCredentialsIsOneClearLine() {
        try (AwsStub aws = AwsStub.start()) {
            int code = run("plan", "--live-prices", "--profile", "gantry-test-no-such-profile", "--pricing-endpoint",
                    aws.endpoint().toString(), "--nodepools", POOL, "--pods", PODS);
            assertThat(code).isEqualTo(2);
            assertThat(err.toString().lines()).containsExactly("gantry plan: --live-prices: no AWS credentials for profile "
                    + "'gantry-test-no-such-profile' in ~/.aws/config or ~/.aws/credentials");
        }
    }

    @Test
    void aRegionThatIsNotAwssIsRefused() {
        assertThat(run("plan", "--region", "mars-west-1", "--nodepools", POOL, "--pods", PODS)).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly("gantry plan: --region: 'mars-west-1' is not an AWS region");
    }

    @Test
    void zonesTheRegionDoesNotHaveAreRefused() {
        assertThat(run("plan", "--zones", "x,y", "--nodepools", POOL, "--pods", PODS)).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly("gantry plan: --zones: zone us-east-1x does not exist in us-east-1; "
                + "zone us-east-1y does not exist in us-east-1 (its zones: us-east-1a, us-east-1b, us-east-1c, us-east-1d, "
                + "us-east-1e, us-east-1f)");
    }

    @Test
    void aPlausibleRegionTheCatalogueDoesNotKnowWarnsAndNeedsItsZonesNamed() throws IOException {
        assertThat(run("plan", "--region", "eu-north-9", "--nodepools", POOL, "--pods", PODS)).isEqualTo(2);
        assertThat(err.toString()).contains("warning: region eu-north-9 is not in the built-in catalogue's region list")
                .contains("name them with --zones");

        err.getBuffer().setLength(0);
        assertThat(run("plan", "--region", "eu-north-9", "--zones", "eu-north-9a,eu-north-9b", "--nodepools", POOL,
                "--pods", PODS, "--output", "json")).as(err.toString()).isZero();
        assertThat(json().get("nodeClaims")).allMatch(c -> c.get("zone").asText().matches("eu-north-9[ab]"));
        assertThat(json().get("prices").get(0).get("approximate").asBoolean()).isTrue();
    }

    @Test
    void aNodePoolRequiringAZoneThatDoesNotExistIsAnErrorAtItsLine(@TempDir Path dir) throws IOException {
        Path pool = dir.resolve("pool.yaml");
        Files.writeString(pool, Files.readString(Path.of(POOL)).replace("        - key: kubernetes.io/os\n",
                "        - key: topology.kubernetes.io/zone\n          operator: In\n          values: [\"us-east-1a\", \"us-east-1z\"]\n"
                        + "        - key: kubernetes.io/os\n"));
        assertThat(run("plan", "--nodepools", pool.toString(), "--pods", PODS)).isEqualTo(2);
        assertThat(err.toString().lines()).contains(pool + ":35:19: NodePool/seed001-general-purpose/"
                + "spec.template.spec.requirements[4].values: zone us-east-1z does not exist in us-east-1 (its zones: "
                + "us-east-1a, us-east-1b, us-east-1c, us-east-1d, us-east-1e, us-east-1f)");

        err.getBuffer().setLength(0);
        assertThat(run("validate", pool.toString())).isEqualTo(2);
        assertThat(err.toString()).contains(pool + ":35:19: NodePool/seed001-general-purpose/spec.template.spec.requirements[4]"
                + ".values: zone us-east-1z does not exist in us-east-1");
    }

    @Test
    void theKarpenterStrategyHasOneSpellingAndTheOldOneIsDeprecated() throws IOException {
        assertThat(run("plan", "--strategy", "karpenter", "--nodepools", POOL, "--pods", PODS, "--output", "json")).isZero();
        assertThat(json().get("strategy").asText()).isEqualTo("karpenter-greedy");
        assertThat(err.toString()).doesNotContain("deprecated");
        out.getBuffer().setLength(0);
        assertThat(run("plan", "--strategy", "karpenter-greedy", "--nodepools", POOL, "--pods", PODS)).isZero();
        assertThat(err.toString()).contains("warning: --strategy karpenter-greedy is deprecated: write --strategy karpenter");
    }

    private static String product(String type, String region, String os, String tenancy, String usd) {
        var p = JSON.createObjectNode();
        String sku = "SKU" + Integer.toHexString((type + region + os + tenancy).hashCode());
        p.putObject("product").put("productFamily", "Compute Instance").put("sku", sku).putObject("attributes")
                .put("instanceType", type).put("regionCode", region).put("operatingSystem", os).put("tenancy", tenancy)
                .put("preInstalledSw", "NA").put("capacitystatus", "Used");
        var term = p.putObject("terms").putObject("OnDemand").putObject(sku + ".JRTCKXETXF");
        term.putObject("priceDimensions").putObject(sku + ".JRTCKXETXF.6YS6EN2CT7").put("unit", "Hrs")
                .putObject("pricePerUnit").put("USD", usd);
        return p.toString();
    }
}
