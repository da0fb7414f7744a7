package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.Doc;
import dev.gantry.core.capacity.CostLimit;
import dev.gantry.core.capacity.SpotSplit;
import dev.gantry.config.yaml.YamlObject;

/**
 * Gantry's cost annotations on a NodePool, checked where they are written by the rules core reads them with: {@code gantry.dev/spot-percentage} (the
 * spot/on-demand split, core {@code capacity.SpotSplit}) must be a whole number from 0 to 100;
 * {@code gantry.dev/limit-cost-per-hour} (core {@code capacity.CostLimit}) a non-negative amount of dollars per hour.
 */
final class CostAnnotations {
    static final String SPOT_PERCENTAGE = SpotSplit.ANNOTATION;
    static final String LIMIT_COST = CostLimit.ANNOTATION;

    private CostAnnotations() {
    }

    static void check(Doc doc) {
        YamlObject meta = doc.root().object("metadata");
        YamlObject annotations = meta == null ? null : meta.object("annotations");
        if (annotations == null) {
            return;
        }
        String cost = doc.annotations().get(LIMIT_COST);
        if (cost != null && CostLimit.parse(cost).isEmpty()) {
            annotations.error(LIMIT_COST, "'" + cost + "' is not a cost limit: write dollars per hour as a plain number "
                    + "(e.g. \"12.50\"), without a currency sign");
        }
        String v = doc.annotations().get(SPOT_PERCENTAGE);
        if (v == null) {
            return;
        }
        if (SpotSplit.parse(v).isEmpty()) {
            annotations.error(SPOT_PERCENTAGE, "'" + v + "' is not a spot percentage: write a whole number from 0 to 100 "
                    + "(the share of the pool's vCPU to keep on spot, e.g. \"70\")");
        }
    }
}
