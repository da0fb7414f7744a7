package dev.gantry.aws.pricing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.aws.ec2.StubClients;
import dev.gantry.testing.MutableClock;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.model.NodeClass;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Ec2Resources.InstanceTypeInfo;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.StubResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Live offerings and prices over the built-in catalogue, and the fallback when AWS fails. */
class LiveInstanceTypeProviderTest {
    private static final NodeClass NODE_CLASS = new NodeClass("default", null, null, "AL2023", null, null, null,
            "role", null, null, null, null, null, null, null, null, null);
    private static final StubResponse SERVER_ERROR = new StubResponse(500, "text/plain", "boom");

    private final MutableClock clock = new MutableClock(Instant.parse("2025-06-01T00:00:00Z"));
    private final Catalog catalog = BuiltInCatalog.load("us-east-1", Ec2State.ZONES);
    private AwsStub stub;
    private StubClients clients;
    private LiveInstanceTypeProvider provider;

    @BeforeEach
    void start() {
        stub = AwsStub.start(Ec2State.withDefaults(), clock);
        clients = StubClients.of(stub);
        provider = LiveInstanceTypeProvider.create(catalog, clients.ec2(), clients.pricing(), clock);
    }

    @AfterEach
    void stop() {
        clients.close();
        stub.close();
    }

    private static InstanceType type(List<InstanceType> types, String name) {
        return types.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    private static double price(InstanceType t, String zone, String capacityType) {
        return t.offerings().stream().filter(o -> o.zone().equals(zone) && o.capacityType().equals(capacityType))
                .mapToDouble(Offering::pricePerHour).findFirst().orElseThrow();
    }

    @Test
    void pricesOfferingsWithLiveSpotAndOnDemandPricesInTheZonesEc2Offers() {
        List<InstanceType> types = provider.instanceTypes(NODE_CLASS);

        InstanceType m5 = type(types, "m5.large");
        assertThat(price(m5, "us-east-1b", "spot")).isEqualTo(0.035);
        assertThat(price(m5, "us-east-1b", "on-demand")).isEqualTo(0.096);
        assertThat(m5.offerings()).hasSize(6);
        assertThat(type(types, "c5.large").requirements().get("karpenter.sh/capacity-type").has("spot")).isTrue();
        // The stub's EC2 offers four types: every other catalogue type has no zone, so nothing launches it.
        assertThat(type(types, "r5.large").offerings()).isEmpty();
        assertThat(types).hasSameSizeAs(catalog.instanceTypes(NODE_CLASS));
        assertThat(stub.lastRequest("DescribeInstanceTypeOfferings").param("LocationType")).isEqualTo("availability-zone");
        assertThat(stub.lastRequest("DescribeSpotPriceHistory").params())
                .containsEntry("ProductDescription.1", "Linux/UNIX").containsEntry("ProductDescription.2", "Linux/UNIX (Amazon VPC)");
        assertThat(stub.lastRequest("AWSPriceListService.GetProducts").body())
                .contains("{\"Type\":\"TERM_MATCH\",\"Field\":\"regionCode\",\"Value\":\"us-east-1\"}")
                .contains("\"Field\":\"capacitystatus\",\"Value\":\"Used\"").contains("\"Field\":\"tenancy\",\"Value\":\"Shared\"")
                .contains("\"Field\":\"preInstalledSw\",\"Value\":\"NA\"").contains("\"Field\":\"operatingSystem\",\"Value\":\"Linux\"");
    }

    @Test
    void fallsBackToTheBuiltInCatalogueWhenEveryCallFails() {
        stub.on("DescribeInstanceTypeOfferings", q -> SERVER_ERROR).on("DescribeSpotPriceHistory", q -> SERVER_ERROR)
                .onTarget("AWSPriceListService.GetProducts", q -> SERVER_ERROR);

        List<InstanceType> types = provider.instanceTypes(NODE_CLASS);

        List<InstanceType> builtIn = catalog.instanceTypes(NODE_CLASS);
        for (String name : List.of("m5.large", "r5.large", "c5.large")) {
            assertThat(type(types, name).offerings()).isEqualTo(type(builtIn, name).offerings());
        }
    }

    @Test
    void keepsTheLastGoodPricesWhenARefreshFails() {
        provider.instanceTypes(NODE_CLASS);
        stub.on("DescribeSpotPriceHistory", q -> SERVER_ERROR);
        clock.advance(Duration.ofHours(13));

        assertThat(price(type(provider.instanceTypes(NODE_CLASS), "m5.large"), "us-east-1a", "spot")).isEqualTo(0.035);
        assertThat(stub.requests("DescribeSpotPriceHistory")).hasSize(2);
    }

    @Test
    void picksUpNewSpotPricesAfterTheTtl() {
        provider.instanceTypes(NODE_CLASS);
        stub.ec2().addInstanceType(new InstanceTypeInfo("m5.large", 2, 8192, "x86_64", 3, 10, "nitro"),
                Ec2State.ZONES, "0.0410");
        assertThat(price(type(provider.instanceTypes(NODE_CLASS), "m5.large"), "us-east-1a", "spot")).isEqualTo(0.035);

        clock.advance(Duration.ofHours(13));

        assertThat(price(type(provider.instanceTypes(NODE_CLASS), "m5.large"), "us-east-1a", "spot")).isEqualTo(0.041);
    }

    @Test
    void spotPricesAreCachedForTwelveHours() {
        provider.instanceTypes(NODE_CLASS);
        clock.advance(Duration.ofHours(11));
        provider.instanceTypes(NODE_CLASS);
        assertThat(stub.requests("DescribeSpotPriceHistory")).hasSize(1);
        assertThat(stub.requests("DescribeInstanceTypeOfferings")).as("offerings refresh after 5 minutes").hasSize(2);

        clock.advance(Duration.ofHours(2));
        provider.instanceTypes(NODE_CLASS);
        assertThat(stub.requests("DescribeSpotPriceHistory")).hasSize(2);
    }

    @Test
    void offeringsMarkedUnavailableStayUnavailable() {
        var key = new OfferingKey("m5.large", "us-east-1a", "spot");

        InstanceType m5 = type(provider.withUnavailable(Set.of(key)).instanceTypes(NODE_CLASS), "m5.large");

        assertThat(m5.offerings()).filteredOn(o -> !o.available()).singleElement()
                .satisfies(o -> assertThat(new OfferingKey("m5.large", o.zone(), o.capacityType())).isEqualTo(key));
        assertThat(stub.requests("DescribeSpotPriceHistory")).as("live data is shared, not re-read").hasSize(1);
    }
}
