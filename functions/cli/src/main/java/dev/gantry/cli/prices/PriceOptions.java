package dev.gantry.cli.prices;

import dev.gantry.cli.errors.CliFailure;
import java.net.URI;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The price options {@code plan} and {@code consolidate} share (a picocli mixin). */
public final class PriceOptions {
    @Option(names = "--prices", paramLabel = "FILE", description = "On-demand prices to use: {\"regions\": {region: "
            + "{instanceType: price}}}, or the JSON `aws pricing get-products --service-code AmazonEC2` prints. Regions "
            + "it does not name keep the built-in prices.")
    Path file;

    @Option(names = "--live-prices", description = "Read on-demand prices from the AWS Price List API with your "
            + "credentials (pricing:GetProducts), as deployed Gantry does.")
    boolean live;

    @Option(names = "--profile", description = "AWS profile for --live-prices (default: the SDK's credential chain).")
    String profile;

    @Option(names = "--pricing-endpoint", hidden = true, description = "Pricing API endpoint (tests).")
    URI endpoint;

    /** The source these options name. @throws CliFailure when both are given, or the file cannot be read */
    public PriceSource source() {
        if (file != null && live) {
            throw new CliFailure("--prices and --live-prices are exclusive: give one");
        }
        if (file != null) {
            return PriceFile.read(file);
        }
        return live ? new LivePrices(profile, endpoint) : PriceSource.builtIn();
    }
}
