package dev.gantry.config.workload;

import dev.gantry.config.karpenter.RequirementReader;
import dev.gantry.config.yaml.YamlObject;

/** Checks a pod's {@code affinity} as the API server would: operators and values, weights, topology keys. */
final class AffinityChecks {
    private static final String REQUIRED = "requiredDuringSchedulingIgnoredDuringExecution";
    private static final String PREFERRED = "preferredDuringSchedulingIgnoredDuringExecution";

    private AffinityChecks() {
    }

    static void check(YamlObject affinity) {
        YamlObject node = affinity.object("nodeAffinity");
        if (node != null) {
            YamlObject req = node.object(REQUIRED);
            if (req != null) {
                for (YamlObject t : req.objects("nodeSelectorTerms")) {
                    RequirementReader.forPod(t, "matchExpressions");
                }
            }
            for (YamlObject p : node.objects(PREFERRED)) {
                weight(p);
                YamlObject pref = p.object("preference");
                if (pref != null) {
                    RequirementReader.forPod(pref, "matchExpressions");
                }
            }
        }
        for (String kind : new String[]{"podAffinity", "podAntiAffinity"}) {
            YamlObject pa = affinity.object(kind);
            if (pa != null) {
                pa.objects(REQUIRED).forEach(AffinityChecks::term);
                for (YamlObject p : pa.objects(PREFERRED)) {
                    weight(p);
                    YamlObject t = p.object("podAffinityTerm");
                    if (t != null) {
                        term(t);
                    }
                }
            }
        }
    }

    private static void term(YamlObject t) {
        t.require("topologyKey");
        t.string("topologyKey");
        t.strings("namespaces");
        selector(t, "labelSelector");
        selector(t, "namespaceSelector");
    }

    private static void weight(YamlObject p) {
        Integer w = p.integer("weight");
        if (w == null || w < 1 || w > 100) {
            p.errorHere("weight", "must be between 1 and 100" + (w == null ? "" : ", got " + w));
        }
    }

    /** A label selector's labels and expressions. */
    static void selector(YamlObject parent, String field) {
        YamlObject s = parent.object(field);
        if (s != null) {
            s.stringMap("matchLabels");
            RequirementReader.forPod(s, "matchExpressions");
        }
    }
}
