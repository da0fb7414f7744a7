package dev.gantry.config.deployment;

import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * How {@link ConsolidationSettings} travel from the deployment to the functions that consolidate: two environment
 * variables, written by the CDK app and read at a function's cold start. The words are the ones a user types in CDK
 * context and scenario files: {@code true}/{@code false} for spot-to-spot, {@code gantry}/{@code karpenter} for the
 * strategy. An unset variable means the deployment default; a value outside those words is an error that names the
 * variable.
 */
public final class ConsolidationVariables {
    /** Karpenter's {@code SpotToSpotConsolidation} feature gate: {@code true} or {@code false}. */
    public static final String SPOT_TO_SPOT = "GANTRY_SPOT_TO_SPOT_CONSOLIDATION";
    /** {@code gantry} (Gantry's engine) or {@code karpenter} (the Karpenter reference alone). */
    public static final String STRATEGY = "GANTRY_CONSOLIDATION_STRATEGY";
    /** The functions that decide (sweep) or re-validate (termination) consolidation, and so read the variables. */
    public static final List<String> CONSUMERS = List.of("sweep", "termination");

    private ConsolidationVariables() {
    }

    /** The variables that carry {@code s}. */
    public static Map<String, String> of(ConsolidationSettings s) {
        return Map.of(SPOT_TO_SPOT, String.valueOf(s.spotToSpot()), STRATEGY, word(s.strategy()));
    }

    /**
     * The settings the variables name, {@code fallback}'s value for an unset one.
     *
     * @param env a variable's value, empty when unset
     * @throws IllegalArgumentException {@code environment variable NAME: expected ..., got '...'}
     */
    public static ConsolidationSettings read(Function<String, Optional<String>> env, ConsolidationSettings fallback) {
        boolean spotToSpot = fallback.spotToSpot();
        ConsolidationSettings.Strategy strategy = fallback.strategy();
        try {
            Optional<String> s = env.apply(SPOT_TO_SPOT);
            if (s.isPresent()) {
                spotToSpot = spotToSpot(s.get());
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("environment variable " + SPOT_TO_SPOT + ": " + e.getMessage());
        }
        try {
            Optional<String> s = env.apply(STRATEGY);
            if (s.isPresent()) {
                strategy = strategy(s.get());
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("environment variable " + STRATEGY + ": " + e.getMessage());
        }
        return new ConsolidationSettings(spotToSpot, strategy);
    }

    /** @throws IllegalArgumentException {@code expected true or false, got '...'} */
    public static boolean spotToSpot(String text) {
        return switch (text.strip()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("expected true or false, got '" + text + "'");
        };
    }

    /** @throws IllegalArgumentException {@code expected gantry or karpenter, got '...'} */
    public static ConsolidationSettings.Strategy strategy(String text) {
        return switch (text.strip()) {
            case "gantry" -> ConsolidationSettings.Strategy.GANTRY;
            case "karpenter" -> ConsolidationSettings.Strategy.KARPENTER;
            default -> throw new IllegalArgumentException("expected gantry or karpenter, got '" + text + "'");
        };
    }

    public static String word(ConsolidationSettings.Strategy s) {
        return s == ConsolidationSettings.Strategy.KARPENTER ? "karpenter" : "gantry";
    }
}
