package dev.gantry.handlers.attach;

import dev.gantry.config.crd.AttachCrds;
import dev.gantry.config.crd.KarpenterCrd;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Installs the CRDs of {@link AttachCrds} as {@link CrdDecision} says: create where absent, upgrade Gantry's own older
 * ones, and leave newer or foreign ones alone (reported, never fatal). A second run against the same cluster writes
 * nothing. A CRD it creates is not served at once (the API server establishes it first), so before returning it waits
 * until each CRD's resource answers a list, which is what the bundle's apply needs next.
 */
final class CrdInstall {
    static final String API_VERSION = "apiextensions.k8s.io/v1";
    static final String KIND = "CustomResourceDefinition";
    /** Named in full, so the client needs no API discovery (and the attach jar no apiextensions model). */
    static final ResourceDefinitionContext CRDS = new ResourceDefinitionContext.Builder().withGroup("apiextensions.k8s.io")
            .withVersion("v1").withKind(KIND).withPlural("customresourcedefinitions").withNamespaced(false).build();
    static final Duration ESTABLISH_TIMEOUT = Duration.ofSeconds(30);
    static final Duration POLL = Duration.ofMillis(500);

    private final KubernetesClient client;
    private final Clock clock;
    private final FinalSweep.Sleeper sleeper;

    CrdInstall(KubernetesClient client, Clock clock, FinalSweep.Sleeper sleeper) {
        this.client = client;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /** One line per CRD: {@code CRD <name>: <what was done>}. */
    List<String> run(List<AttachCrds.Manifest> manifests) {
        List<String> report = new ArrayList<>();
        for (AttachCrds.Manifest m : manifests) {
            GenericKubernetesResource ours = Serialization.unmarshal(m.yaml(), GenericKubernetesResource.class);
            Resource<GenericKubernetesResource> current = client.genericKubernetesResources(CRDS).withName(m.name());
            GenericKubernetesResource existing = current.get();
            CrdDecision d = CrdDecision.decide(KarpenterCrd.KARPENTER_RELEASE,
                    Optional.ofNullable(existing).map(e -> Optional.ofNullable(e.getMetadata().getAnnotations()).orElse(Map.of())));
            String detail = d.detail();
            switch (d.action()) {
                case CREATE -> client.genericKubernetesResources(CRDS).resource(ours).create();
                case UPGRADE -> {
                    ours.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
                    client.genericKubernetesResources(CRDS).resource(ours).update();
                }
                case KEEP_FOREIGN, KEEP_NEWER -> {
                    String version = servedVersion(ours);
                    if (!serves(existing, version)) {
                        detail += "; it does not serve " + version + ", which Gantry reads: upgrade it";
                    }
                }
                case UNCHANGED -> { }
            }
            if (d.action().writes()) {
                awaitServed(ours);
            }
            report.add("CRD " + m.name() + ": " + detail);
        }
        return report;
    }

    @SuppressWarnings("unchecked")
    private static String servedVersion(GenericKubernetesResource crd) {
        List<Map<String, Object>> versions = (List<Map<String, Object>>) ((Map<String, Object>) crd.getAdditionalProperties()
                .get("spec")).get("versions");
        return String.valueOf(versions.getFirst().get("name"));
    }

    @SuppressWarnings("unchecked")
    private static boolean serves(GenericKubernetesResource crd, String version) {
        Object spec = crd.getAdditionalProperties().get("spec");
        if (!(spec instanceof Map<?, ?> s) || !(s.get("versions") instanceof List<?> versions)) {
            return false;
        }
        return versions.stream().anyMatch(v -> v instanceof Map<?, ?> m && version.equals(m.get("name"))
                && Boolean.TRUE.equals(m.get("served")));
    }

    /** Waits until the CRD's resource can be listed; an API server serves a new CRD a moment after it is created. */
    @SuppressWarnings("unchecked")
    private void awaitServed(GenericKubernetesResource crd) {
        Map<String, Object> spec = (Map<String, Object>) crd.getAdditionalProperties().get("spec");
        String plural = String.valueOf(((Map<String, Object>) spec.get("names")).get("plural"));
        String apiVersion = spec.get("group") + "/" + servedVersion(crd);
        Instant deadline = clock.instant().plus(ESTABLISH_TIMEOUT);
        var context = new ResourceDefinitionContext.Builder()
                .withGroup(String.valueOf(spec.get("group"))).withVersion(servedVersion(crd)).withPlural(plural)
                .withKind(String.valueOf(((Map<String, Object>) spec.get("names")).get("kind")))
                .withNamespaced("Namespaced".equals(spec.get("scope"))).build();
        while (true) {
            try {
                client.genericKubernetesResources(context).inAnyNamespace().list(1, null);
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 404 || clock.instant().isAfter(deadline)) {
                    throw new IllegalStateException("the API server does not serve " + plural + " (" + apiVersion
                            + ") " + ESTABLISH_TIMEOUT.toSeconds() + " s after its CRD was written", e);
                }
            }
            try {
                sleeper.sleep(POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + plural, e);
            }
        }
    }
}
