package dev.gantry.config.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.crd.CrdValidator.Violation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every NodePool, EC2NodeClass and NodeClaim in samples/ (seeds, pools, scenarios, buffers, cluster dumps) that these
 * CRDs serve is valid against them, so the users' YAML applies unchanged to a cluster with Gantry's CRDs installed.
 * Older schemas, which the CRDs do not serve, are listed so none is skipped unnoticed.
 */
class CrdSamplesTest {
    private static final Path SAMPLES = Path.of("../../samples");
    private static final Set<String> KARPENTER_GROUPS = Set.of("karpenter.sh", "karpenter.k8s.aws", "eks.amazonaws.com");

    record Found(String file, Map<String, Object> object) {
        String label() {
            Object name = Yaml.at(object, "metadata", "name");
            return file + " " + object.get("apiVersion") + " " + object.get("kind") + "/" + name;
        }
    }

    static List<Found> karpenterObjects() throws IOException {
        List<Found> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SAMPLES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().toList()) {
                String rel = SAMPLES.relativize(f).toString();
                for (Object doc : Yaml.all(Files.readString(f))) {
                    for (Object item : "List".equals(Yaml.at(doc, "kind")) ? Yaml.list(Yaml.at(doc, "items")) : List.of(doc)) {
                        if (item instanceof Map<?, ?> m && m.get("apiVersion") instanceof String av
                                && KARPENTER_GROUPS.contains(av.contains("/") ? av.substring(0, av.indexOf('/')) : av)) {
                            out.add(new Found(rel, Yaml.map(m)));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** The CRD Gantry installs that serves this object: Karpenter's three, or the NodeOverlay CRD attach installs. */
    static Optional<CrdValidator> served(Found f) {
        String apiVersion = (String) f.object().get("apiVersion");
        String kind = (String) f.object().get("kind");
        if ("karpenter.sh/v1alpha1".equals(apiVersion) && "NodeOverlay".equals(kind)) {
            return AttachCrds.all().stream().filter(m -> m.name().equals(AttachCrds.NODE_OVERLAY_NAME)).findFirst()
                    .map(m -> CrdValidator.of(m.yaml()));
        }
        return KarpenterCrd.serving(apiVersion, kind).map(CrdValidator::of);
    }

    @Test
    void everyServedSampleIsValidAgainstItsCrd() throws IOException {
        List<String> checked = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Found f : karpenterObjects()) {
            Optional<CrdValidator> crd = served(f);
            if (crd.isEmpty()) {
                continue;
            }
            checked.add(f.label());
            for (Violation v : crd.get().validateCreate(f.object())) {
                problems.add(f.label() + ": " + v);
            }
        }
        assertThat(problems).isEmpty();
        // 10 NodePools and 8 EC2NodeClasses today; the count guards against a walk that silently finds nothing.
        assertThat(checked).filteredOn(s -> s.contains(" NodePool/")).hasSizeGreaterThanOrEqualTo(10);
        assertThat(checked).filteredOn(s -> s.contains(" EC2NodeClass/")).hasSizeGreaterThanOrEqualTo(7);
        assertThat(checked).filteredOn(s -> s.contains(" NodeOverlay/")).isNotEmpty();
    }

    @Test
    void skipsOnlyTheOlderSchemasTheseCrdsDoNotServe() throws IOException {
        List<String> skipped = karpenterObjects().stream()
                .filter(f -> served(f).isEmpty())
                .map(Found::label).toList();
        assertThat(skipped).containsExactlyInAnyOrder(
                "nodepools/seed000-provisioner.yaml karpenter.sh/v1alpha5 Provisioner/default",
                "nodepools/seed001-auto-mode.yaml eks.amazonaws.com/v1 NodeClass/default",
                "nodepools/seed002-v1beta1.yaml karpenter.sh/v1beta1 NodePool/karpenter-node-pool",
                "nodepools/seed002-v1beta1.yaml karpenter.k8s.aws/v1beta1 EC2NodeClass/default",
                "scenarios/spot/seed002-rebalance.yaml karpenter.sh/v1beta1 NodePool/karpenter-node-pool-rebalance",
                "scenarios/spot/seed002-rebalance.yaml karpenter.k8s.aws/v1beta1 EC2NodeClass/rebalance",
                "scenarios/consolidation/pool-balanced.yaml eks.amazonaws.com/v1 NodeClass/balanced");
    }
}
