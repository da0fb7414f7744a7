package dev.gantry.config.workload;

import dev.gantry.config.karpenter.RequirementReader;
import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.requirements.Requirements;
import java.util.ArrayList;
import java.util.List;

/** Reads a pod's {@code affinity}: node affinity as requirement sets, pod (anti-)affinity as terms. */
final class AffinityReader {
    private static final String REQUIRED = "requiredDuringSchedulingIgnoredDuringExecution";
    private static final String PREFERRED = "preferredDuringSchedulingIgnoredDuringExecution";

    private AffinityReader() {
    }

    static void read(YamlObject affinity, Pod.Builder b) {
        YamlObject node = affinity.object("nodeAffinity");
        if (node != null) {
            YamlObject req = node.object(REQUIRED);
            if (req != null) {
                List<Requirements> terms = new ArrayList<>();
                for (YamlObject t : req.objects("nodeSelectorTerms")) {
                    terms.add(Requirements.of(RequirementReader.forPod(t, "matchExpressions")));
                }
                b.requiredNodeAffinity(terms);
            }
            List<Pod.WeightedRequirements> preferred = new ArrayList<>();
            for (YamlObject p : node.objects(PREFERRED)) {
                YamlObject pref = p.object("preference");
                int w = weight(p);
                preferred.add(new Pod.WeightedRequirements(w,
                        pref == null ? Requirements.NONE : Requirements.of(RequirementReader.forPod(pref, "matchExpressions"))));
            }
            b.preferredNodeAffinity(preferred);
        }
        YamlObject pa = affinity.object("podAffinity");
        if (pa != null) {
            b.podAffinity(required(pa)).preferredPodAffinity(preferred(pa));
        }
        YamlObject anti = affinity.object("podAntiAffinity");
        if (anti != null) {
            b.podAntiAffinity(required(anti)).preferredPodAntiAffinity(preferred(anti));
        }
    }

    private static List<PodAffinityTerm> required(YamlObject o) {
        return o.objects(REQUIRED).stream().map(t -> term(t, 0)).toList();
    }

    private static List<PodAffinityTerm> preferred(YamlObject o) {
        List<PodAffinityTerm> out = new ArrayList<>();
        for (YamlObject p : o.objects(PREFERRED)) {
            int w = weight(p);
            YamlObject t = p.object("podAffinityTerm");
            if (t != null) {
                out.add(term(t, w));
            }
        }
        return out;
    }

    private static PodAffinityTerm term(YamlObject t, int weight) {
        t.require("topologyKey");
        String key = t.string("topologyKey");
        return new PodAffinityTerm(selector(t, "labelSelector"), key == null ? "" : key, t.strings("namespaces"),
                t.has("namespaceSelector") ? selector(t, "namespaceSelector") : null, weight);
    }

    private static int weight(YamlObject p) {
        Integer w = p.integer("weight");
        if (w == null || w < 1 || w > 100) {
            p.errorHere("weight", "must be between 1 and 100" + (w == null ? "" : ", got " + w));
            return 1;
        }
        return w;
    }

    /** A label selector; absent is {@link LabelSelector#NOTHING}, as Kubernetes reads a null selector in a term. */
    static LabelSelector selector(YamlObject parent, String field) {
        YamlObject s = parent.object(field);
        if (s == null) {
            return LabelSelector.NOTHING;
        }
        var labels = s.stringMap("matchLabels");
        return new LabelSelector(labels, RequirementReader.forPod(s, "matchExpressions"), false);
    }
}
