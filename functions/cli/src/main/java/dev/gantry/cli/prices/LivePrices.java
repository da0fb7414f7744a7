package dev.gantry.cli.prices;

import dev.gantry.aws.pricing.OnDemandPrices;
import dev.gantry.cli.errors.AwsErrors;
import dev.gantry.cli.errors.CliFailure;
import dev.gantry.core.catalog.PriceBook;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.pricing.PricingClient;

/**
 * On-demand prices read from the AWS Price List API ({@code --live-prices}) with the user's credentials, by the
 * handlers' own reader ({@link OnDemandPrices#fetch}: GetProducts, Linux, shared tenancy, no pre-installed software,
 * capacity status Used). The Pricing API answers in us-east-1 for commercial and GovCloud regions and in
 * cn-northwest-1 for China. Each region is read once per command; the caller needs {@code pricing:GetProducts}.
 */
public final class LivePrices implements PriceSource {
    private final String profile;
    private final URI endpoint;
    private final Map<String, PriceBook> read = new HashMap<>();

    /** {@code profile} null for the SDK's credential chain; {@code endpoint} null for AWS's (tests pass a stub). */
    public LivePrices(String profile, URI endpoint) {
        this.profile = profile;
        this.endpoint = endpoint;
    }

    @Override
    public PriceBook bookFor(String region) {
        return read.computeIfAbsent(region, this::fetch);
    }

    private PriceBook fetch(String region) {
        AwsCredentialsProvider credentials = profile != null ? ProfileCredentialsProvider.create(profile)
                : DefaultCredentialsProvider.builder().build();
        var builder = PricingClient.builder().region(region.startsWith("cn-") ? Region.CN_NORTHWEST_1 : Region.US_EAST_1)
                .credentialsProvider(credentials).httpClient(UrlConnectionHttpClient.create());
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        try (PricingClient pricing = builder.build()) {
            return BuiltInPrices.with(region, OnDemandPrices.fetch(pricing, region), region.startsWith("cn-") ? "CNY" : "USD");
        } catch (SdkException e) {
            throw new CliFailure("--live-prices: " + AwsErrors.describe(e));
        } catch (IllegalStateException e) {
            throw new CliFailure("--live-prices: " + e.getMessage());
        }
    }

    @Override
    public String name() {
        return "Pricing API";
    }
}
