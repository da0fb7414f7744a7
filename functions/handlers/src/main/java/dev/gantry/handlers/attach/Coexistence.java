package dev.gantry.handlers.attach;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Never fight another autoscaler over a NodePool. Two autoscalers reading the same NodePools would both launch nodes
 * for the same pending pods and consolidate each other's nodes, so attach refuses when another one is active, unless
 * the user named the NodePools that are Gantry's ({@code cdk deploy -c nodePools=a,b}); Gantry then manages only those.
 *
 * <p>The signals:
 * <ul>
 *   <li><b>Karpenter's controller is running:</b> its leader-election Lease, {@value #KARPENTER_LEASE} (in whatever
 *       namespace Karpenter runs: {@code kube-system}, {@code karpenter}, or its {@code LEADER_ELECTION_NAMESPACE}),
 *       has a holder and was renewed within {@link #LEASE_FRESH}. A running leader renews every few seconds; a
 *       controller scaled to 0 stops renewing (or releases the Lease), so step 1 of the migration (scale Karpenter to
 *       0) clears it within a minute. The Lease, not a Deployment, is what every Karpenter install shares, in or
 *       out of the cluster, whatever its chart's name.</li>
 *   <li><b>EKS Auto Mode's compute is enabled:</b> DescribeCluster's {@code computeConfig.enabled}. Auto Mode runs
 *       Karpenter as a managed controller on the same {@code karpenter.sh} NodePools.</li>
 * </ul>
 */
final class Coexistence {
    static final String KARPENTER_LEASE = "karpenter-leader-election";
    static final Duration LEASE_FRESH = Duration.ofMinutes(1);
    /** Named in full, so the client needs no API discovery (and the attach jar no coordination model). */
    private static final ResourceDefinitionContext LEASES = new ResourceDefinitionContext.Builder()
            .withGroup("coordination.k8s.io").withVersion("v1").withKind("Lease").withPlural("leases").withNamespaced(true).build();

    private Coexistence() {
    }

    /**
     * Why attach must refuse, or empty when it may go on.
     *
     * @param autoModeCompute whether the cluster has EKS Auto Mode compute enabled
     * @param gantryPools     the NodePools the user named as Gantry's; non-empty allows coexistence
     */
    static Optional<String> refusal(KubernetesClient client, boolean autoModeCompute, Set<String> gantryPools, Instant now) {
        List<String> others = new ArrayList<>();
        karpenterLeader(client, now).ifPresent(where -> others.add("Karpenter's controller is running (Lease "
                + where + " renewed within the last " + LEASE_FRESH.toSeconds() + " s)"));
        if (autoModeCompute) {
            others.add("EKS Auto Mode compute is enabled for the cluster");
        }
        if (others.isEmpty() || !gantryPools.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("Gantry will not attach: " + String.join(" and ", others) + ". Two autoscalers on the same"
                + " NodePools launch nodes for the same pods and remove each other's. Either stop the other one (to"
                + " migrate from Karpenter, scale its controller to 0 first), or name the NodePools Gantry manages:"
                + " cdk deploy -c nodePools=<pool>[,<pool>...] (the other autoscaler must not use them).");
    }

    /** {@code namespace/name} of Karpenter's leader Lease when its holder renewed it recently. */
    static Optional<String> karpenterLeader(KubernetesClient client, Instant now) {
        for (GenericKubernetesResource lease : client.genericKubernetesResources(LEASES)
                .inAnyNamespace().withField("metadata.name", KARPENTER_LEASE).list().getItems()) {
            if (!KARPENTER_LEASE.equals(lease.getMetadata().getName())) {
                continue; // a server that ignored the field selector
            }
            if (lease.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec && held(spec, now)) {
                return Optional.of(lease.getMetadata().getNamespace() + "/" + KARPENTER_LEASE);
            }
        }
        return Optional.empty();
    }

    private static boolean held(Map<?, ?> spec, Instant now) {
        Object holder = spec.get("holderIdentity");
        Object renew = spec.get("renewTime");
        if (!(holder instanceof String h) || h.isBlank() || !(renew instanceof String r)) {
            return false;
        }
        try {
            return !Instant.parse(r).isBefore(now.minus(LEASE_FRESH));
        } catch (DateTimeParseException e) {
            return true; // a holder with an unreadable renew time: assume it is alive rather than fight it
        }
    }
}
