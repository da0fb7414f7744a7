package dev.gantry.core.catalog.overlay;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A NodeOverlay's price: an absolute {@code price} ("0.25") or a {@code priceAdjustment} ("+0.1", "-0.05", "+10%",
 * "-20%", down to "-100%"), with the patterns of Karpenter v1.14.1's CRD ({@code pkg/apis/v1alpha1/nodeoverlay.go}).
 * An adjustment applies to the offering's list price; a price never goes below 0.
 *
 * @param text     as written (kept for messages)
 * @param absolute true for {@code price}
 * @param percent  true for a percentage adjustment
 * @param value    the price, the signed amount, or the signed percentage
 */
public record PriceChange(String text, boolean absolute, boolean percent, double value) {
    private static final Pattern PRICE = Pattern.compile("^\\d+(\\.\\d+)?$");
    private static final Pattern ADJUSTMENT = Pattern.compile("^(([+-](\\d*\\.?\\d+))|(\\+\\d*\\.?\\d+%)|(-\\d{1,2}(\\.\\d+)?%)|(-100%))$");

    public PriceChange {
        Objects.requireNonNull(text, "text");
    }

    /** An absolute price, or null with the reason in {@code problem[0]}. */
    public static PriceChange price(String text, String[] problem) {
        if (text == null || !PRICE.matcher(text).matches()) {
            problem[0] = "must be a non-negative decimal such as 0.25 (dollars per hour), got '" + text + "'";
            return null;
        }
        return new PriceChange(text, true, false, Double.parseDouble(text));
    }

    /** A price adjustment, or null with the reason in {@code problem[0]}. */
    public static PriceChange adjustment(String text, String[] problem) {
        if (text == null || !ADJUSTMENT.matcher(text).matches()) {
            problem[0] = "must be a signed amount (+0.1, -0.05) or percentage (+10%, -20%, at least -100%), got '" + text + "'";
            return null;
        }
        boolean pct = text.endsWith("%");
        double v = Double.parseDouble(pct ? text.substring(0, text.length() - 1) : text);
        return new PriceChange(text, false, pct, v);
    }

    /** The price after this change to an offering listed at {@code listPrice}. */
    public double apply(double listPrice) {
        double out = absolute ? value : percent ? listPrice * (1 + value / 100) : listPrice + value;
        return Math.max(0, out);
    }

    @Override
    public String toString() {
        return text;
    }
}
