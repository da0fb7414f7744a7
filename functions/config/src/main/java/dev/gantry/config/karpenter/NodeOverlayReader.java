package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.catalog.overlay.NodeOverlay;
import dev.gantry.core.catalog.overlay.PriceChange;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.requirements.Requirement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a {@code karpenter.sh/v1alpha1} NodeOverlay with the rules of Karpenter v1.14.1's CRD
 * ({@code pkg/apis/v1alpha1/nodeoverlay.go}): at most 100 requirements ('In'/'NotIn' need values, numeric operators one
 * non-negative integer); {@code price} and {@code priceAdjustment} by their patterns and never both; {@code capacity}
 * only extended resources (cpu, memory, ephemeral-storage and pods refused); {@code weight} 1–10000 (unset is 0).
 * Conflicts between overlays depend on the instance types and are found when they are resolved
 * ({@link dev.gantry.core.catalog.overlay.OverlayResolution}).
 */
public final class NodeOverlayReader {
    public static final String API_VERSION = "karpenter.sh/v1alpha1";
    static final int MAX_REQUIREMENTS = 100;
    static final int MAX_WEIGHT = 10_000;
    private static final Set<String> STANDARD = Set.of("cpu", "memory", "ephemeral-storage", "pods");

    private NodeOverlayReader() {
    }

    /** The overlay, or null when the document has errors (each reported on its {@link Doc#report()}). */
    public static NodeOverlay read(Doc doc) {
        YamlObject spec = doc.spec(true);
        if (spec == null) {
            return null;
        }
        spec.allow("requirements", "price", "priceAdjustment", "capacity", "weight");
        spec.require("requirements"); // required by the CRD; an empty list selects every type
        // Karpenter's NodeOverlay requirements have no minValues and no restricted domains (karpenter.sh/nodepool is a
        // selector here); Kubernetes' operator rules apply.
        List<Requirement> requirements = RequirementReader.forPod(spec, "requirements");
        if (spec.has("requirements") && spec.items("requirements").size() > MAX_REQUIREMENTS) {
            spec.error("requirements", "at most " + MAX_REQUIREMENTS + " requirements are allowed, got "
                    + spec.items("requirements").size());
        }
        PriceChange price = null;
        String[] problem = new String[1];
        if (spec.has("price") && spec.has("priceAdjustment")) {
            spec.errorHere(null, "cannot set both 'price' and 'priceAdjustment'");
        } else if (spec.has("price")) {
            price = PriceChange.price(spec.strictString("price"), problem);
            if (price == null) {
                spec.error("price", problem[0]);
            }
        } else if (spec.has("priceAdjustment")) {
            price = PriceChange.adjustment(spec.strictString("priceAdjustment"), problem);
            if (price == null) {
                spec.error("priceAdjustment", problem[0]);
            }
        }
        Map<String, Long> capacity = new LinkedHashMap<>();
        Map<String, Quantity> q = spec.quantityMap("capacity");
        if (q != null) {
            YamlObject c = spec.object("capacity");
            q.forEach((k, v) -> {
                if (STANDARD.contains(k)) {
                    c.errorAtKey(k, "invalid resource restricted: an overlay adds extended resources only, never " + k);
                } else if (v.isNegative()) {
                    c.error(k, "must not be negative, got " + v);
                } else {
                    capacity.put(k, v.toUnits());
                }
            });
        }
        Integer weight = spec.integer("weight");
        if (weight != null && (weight < 1 || weight > MAX_WEIGHT)) {
            spec.error("weight", "must be between 1 and " + MAX_WEIGHT + ", got " + weight);
        }
        if (price == null && capacity.isEmpty() && !doc.report().hasErrors()) {
            doc.warn("sets neither a price, a priceAdjustment nor capacity: this overlay changes nothing");
        }
        if (doc.report().hasErrors()) {
            return null;
        }
        return new NodeOverlay(doc.name(), requirements, price, capacity, weight == null ? 0 : weight);
    }
}
