package dev.gantry.cli.prices;

import dev.gantry.core.catalog.PriceBook;

/**
 * Where on-demand prices come from for the offline commands: the built-in catalogue, a file ({@code --prices}) or the
 * Pricing API ({@code --live-prices}). Spot prices are always modelled from on-demand ones (the built-in
 * {@code DeterministicSpotPriceModel}).
 */
public interface PriceSource {
    /**
     * The prices to plan {@code region} with: a book that has the region when this source knows it, else the built-in
     * book (which prices an unknown region from us-east-1, with a warning).
     *
     * @throws dev.gantry.cli.errors.CliFailure when the source cannot be read (one line, exit 2)
     */
    PriceBook bookFor(String region);

    /** What this source is, for the notice: {@code built-in}, {@code file prices.json}, {@code Pricing API}. */
    String name();

    /** The built-in prices only. */
    static PriceSource builtIn() {
        return BuiltInPrices.INSTANCE;
    }
}
