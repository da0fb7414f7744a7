package dev.gantry.kube.objects;

import dev.gantry.core.model.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetSpec;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetStatus;

/**
 * A policy/v1 PodDisruptionBudget as the core's {@link PodDisruptionBudget}: its selector (absent selects nothing),
 * {@code minAvailable}/{@code maxUnavailable} as written, the API server's {@code status.disruptionsAllowed} (none
 * without a status: a budget never reconciled allows nothing, the safe reading) and its unhealthy-pod eviction policy.
 */
public final class PdbMapper {
    private PdbMapper() {
    }

    public static PodDisruptionBudget pdb(io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget b) {
        PodDisruptionBudgetSpec spec = b.getSpec();
        PodDisruptionBudgetStatus status = b.getStatus();
        String ns = b.getMetadata().getNamespace();
        return new PodDisruptionBudget(ns == null ? "default" : ns, b.getMetadata().getName(),
                Selectors.label(spec == null ? null : spec.getSelector()),
                spec == null ? null : text(spec.getMinAvailable()), spec == null ? null : text(spec.getMaxUnavailable()),
                status == null || status.getDisruptionsAllowed() == null ? 0 : status.getDisruptionsAllowed(),
                spec == null ? null : spec.getUnhealthyPodEvictionPolicy());
    }

    private static String text(IntOrString v) {
        if (v == null) {
            return null;
        }
        return v.getIntVal() != null ? Integer.toString(v.getIntVal()) : v.getStrVal();
    }
}
