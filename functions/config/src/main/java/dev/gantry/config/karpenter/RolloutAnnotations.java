package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.Doc;
import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.disruption.drift.rollout.RolloutPolicy;
import java.util.Optional;

/** A NodeClass's AMI rollout annotations ({@link RolloutPolicy}), checked at their line and column. */
final class RolloutAnnotations {
    private RolloutAnnotations() {
    }

    static void check(Doc doc) {
        YamlObject meta = doc.root().object("metadata");
        YamlObject annotations = meta == null ? null : meta.object("annotations");
        if (annotations == null) {
            return;
        }
        report(annotations, RolloutPolicy.CANARY, Optional.ofNullable(doc.annotations().get(RolloutPolicy.CANARY))
                .flatMap(RolloutPolicy::canaryProblem));
        report(annotations, RolloutPolicy.SOAK, Optional.ofNullable(doc.annotations().get(RolloutPolicy.SOAK))
                .flatMap(RolloutPolicy::soakProblem));
    }

    private static void report(YamlObject annotations, String key, Optional<String> problem) {
        problem.ifPresent(p -> annotations.error(key, p));
    }
}
