package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.Taint;
import java.util.ArrayList;
import java.util.List;

/** Reads a {@code taints} list ({@code key}, {@code value}, {@code effect}) as a NodePool or a Node writes it. */
public final class TaintReader {
    private TaintReader() {
    }

    public static List<Taint> read(YamlObject parent, String field) {
        List<Taint> out = new ArrayList<>();
        for (YamlObject t : parent.objects(field)) {
            t.allow("key", "value", "effect", "timeAdded");
            String key = t.string("key");
            String value = t.string("value");
            String effect = t.string("effect");
            boolean ok = t.require("key") & t.require("effect");
            if (key != null && LabelRules.keySyntaxProblem(key) != null) {
                t.error("key", LabelRules.keySyntaxProblem(key).replace("label key", "taint key"));
                ok = false;
            }
            if (value != null && LabelRules.valueProblem(value) != null) {
                t.error("value", LabelRules.valueProblem(value).replace("label value", "taint value"));
                ok = false;
            }
            Taint.Effect e = null;
            if (effect != null) {
                try {
                    e = Taint.Effect.parse(effect);
                } catch (IllegalArgumentException ex) {
                    t.error("effect", ex.getMessage() + dev.gantry.config.yaml.Suggest.didYouMean(effect, java.util.Arrays.stream(Taint.Effect.values()).map(Enum::name).toList()));
                    ok = false;
                }
            }
            if (ok && key != null && e != null) {
                out.add(new Taint(key, value, e));
            }
        }
        return out;
    }
}
