package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads node selector requirements ({@code key}, {@code operator}, {@code values}, and for NodePools
 * {@code minValues}). Keys come out normalized, so EKS Auto Mode's {@code eks.amazonaws.com/instance-*} spellings
 * mean the same as Karpenter's.
 */
public final class RequirementReader {
    /** Karpenter's CRD bound on {@code minValues}. */
    static final int MAX_MIN_VALUES = 50;

    private RequirementReader() {
    }

    /** A NodePool's requirements: Karpenter's rules, restricted label domains included. */
    public static List<Requirement> forNodePool(YamlObject parent, String field) {
        return readAll(parent, field, true);
    }

    /** A pod's node selector term ({@code matchExpressions}): Kubernetes' rules. */
    public static List<Requirement> forPod(YamlObject parent, String field) {
        return readAll(parent, field, false);
    }

    private static List<Requirement> readAll(YamlObject parent, String field, boolean nodePool) {
        List<Requirement> out = new ArrayList<>();
        for (YamlObject item : parent.objects(field)) {
            Requirement r = read(item, nodePool);
            if (r != null) {
                out.add(r);
            }
        }
        return out;
    }

    private static Requirement read(YamlObject r, boolean nodePool) {
        if (nodePool) {
            r.allow("key", "operator", "values", "minValues");
        } else {
            r.allow("key", "operator", "values");
        }
        boolean ok = r.require("key") & r.require("operator");
        String key = r.string("key");
        String op = r.string("operator");
        // The CRD types values as strings: an unquoted 6 reaches the API server as a number and is refused.
        List<String> values = nodePool ? r.strictStrings("values") : r.strings("values");
        Integer minValues = nodePool ? r.integer("minValues") : null;
        if (key != null) {
            String problem = LabelRules.keySyntaxProblem(key);
            if (problem == null && nodePool) {
                problem = LabelRules.restrictedProblem(key);
            }
            if (problem != null) {
                r.error("key", problem);
                ok = false;
            } else if (nodePool && LabelRules.nearMissWarning(key) != null) {
                r.warn("key", LabelRules.nearMissWarning(key));
            }
        }
        Operator operator = null;
        if (op != null) {
            try {
                operator = Operator.parse(op);
            } catch (IllegalArgumentException e) {
                r.error("operator", e.getMessage() + dev.gantry.config.yaml.Suggest.didYouMean(op, java.util.Arrays.stream(Operator.values()).map(Enum::name).toList()));
                ok = false;
            }
        }
        if (operator == null || values == null) {
            return null;
        }
        // Check the values even when the key is wrong, so one pass reports every problem of the requirement.
        Requirement req = new Requirement(key == null ? "" : WellKnownLabels.normalize(key), operator, values, minValues);
        String problem = req.validate();
        if (problem == null && operator.isNumeric() && Long.parseLong(values.get(0)) < 0) {
            problem = "operator " + operator + " needs a non-negative integer value, not '" + values.get(0) + "'";
        }
        if (problem == null && minValues != null && minValues > MAX_MIN_VALUES) {
            problem = "minValues must be at most " + MAX_MIN_VALUES;
        }
        if (problem != null) {
            r.error(problem.startsWith("minValues") ? "minValues" : "values", problem);
            return null;
        }
        return ok && key != null ? req : null;
    }
}
