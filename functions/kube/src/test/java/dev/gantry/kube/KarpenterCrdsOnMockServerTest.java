package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.crd.KarpenterCrd;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Gantry's CRD manifests as the Kubernetes client reads them: each is an {@code apiextensions.k8s.io/v1}
 * CustomResourceDefinition with a structural schema, and the fabric8 mock API server (CRUD mode) stores it and then
 * objects of it. The mock checks neither schema nor CEL; config's {@code dev.gantry.config.crd} tests do that.
 */
class KarpenterCrdsOnMockServerTest {
    private static CustomResourceDefinition parse(KarpenterCrd crd) {
        return Serialization.unmarshal(crd.manifest(), CustomResourceDefinition.class);
    }

    private static ResourceDefinitionContext context(KarpenterCrd crd) {
        return new ResourceDefinitionContext.Builder().withGroup(crd.group()).withVersion(KarpenterCrd.VERSION)
                .withKind(crd.kind()).withPlural(crd.plural()).withNamespaced(false).build();
    }

    /** Structural-schema rules the API server enforces on a CRD: each node has a type (or is int-or-string, or keeps
     *  unknown fields), and no node has both properties and additionalProperties. */
    private static void structuralProblems(JSONSchemaProps s, String path, List<String> out) {
        boolean open = Boolean.TRUE.equals(s.getXKubernetesIntOrString()) || Boolean.TRUE.equals(s.getXKubernetesPreserveUnknownFields());
        if (s.getType() == null && !open) {
            out.add(path + ": no type");
        }
        if (!s.getProperties().isEmpty() && s.getAdditionalProperties() != null && s.getAdditionalProperties().getSchema() != null) {
            out.add(path + ": both properties and additionalProperties");
        }
        s.getProperties().forEach((k, v) -> structuralProblems(v, path + "." + k, out));
        if (s.getItems() != null && s.getItems().getSchema() != null) {
            structuralProblems(s.getItems().getSchema(), path + "[]", out);
        }
        if (s.getAdditionalProperties() != null && s.getAdditionalProperties().getSchema() != null) {
            structuralProblems(s.getAdditionalProperties().getSchema(), path + ".*", out);
        }
    }

    private static int rules(JSONSchemaProps s) {
        int n = s.getXKubernetesValidations().size();
        n += s.getProperties().values().stream().mapToInt(KarpenterCrdsOnMockServerTest::rules).sum();
        if (s.getItems() != null && s.getItems().getSchema() != null) {
            n += rules(s.getItems().getSchema());
        }
        if (s.getAdditionalProperties() != null && s.getAdditionalProperties().getSchema() != null) {
            n += rules(s.getAdditionalProperties().getSchema());
        }
        return n;
    }

    @Test
    void eachManifestParsesAsAnApiextensionsV1CrdWithAStructuralSchema() {
        Map<KarpenterCrd, Integer> expectedRules = Map.of(KarpenterCrd.NODE_POOL, 20, KarpenterCrd.NODE_CLAIM, 10, KarpenterCrd.EC2_NODE_CLASS, 44);
        for (KarpenterCrd crd : KarpenterCrd.values()) {
            CustomResourceDefinition d = parse(crd);
            assertThat(d.getApiVersion()).isEqualTo("apiextensions.k8s.io/v1");
            assertThat(d.getMetadata().getName()).isEqualTo(crd.crdName());
            assertThat(d.getSpec().getGroup()).isEqualTo(crd.group());
            assertThat(d.getSpec().getNames().getKind()).isEqualTo(crd.kind());
            CustomResourceDefinitionVersion v = d.getSpec().getVersions().getFirst();
            assertThat(v.getSubresources().getStatus()).isNotNull();
            JSONSchemaProps root = v.getSchema().getOpenAPIV3Schema();
            assertThat(root.getType()).isEqualTo("object");
            List<String> problems = new ArrayList<>();
            structuralProblems(root, crd.kind(), problems);
            assertThat(problems).isEmpty();
            // Nothing of the CEL rules is lost in fabric8's model, which the attach handler will apply.
            assertThat(rules(root)).as(crd.kind() + " rules").isEqualTo(expectedRules.get(crd));
        }
        var scale = parse(KarpenterCrd.NODE_POOL).getSpec().getVersions().getFirst().getSubresources().getScale();
        assertThat(scale.getSpecReplicasPath()).isEqualTo(".spec.replicas");
        assertThat(scale.getStatusReplicasPath()).isEqualTo(".status.nodes");
    }

    @Test
    void theMockServerStoresEachCrdAndThenASeedsObjectsAndANodeClaim() throws IOException {
        try (MockApi api = new MockApi()) {
            for (KarpenterCrd crd : KarpenterCrd.values()) {
                api.client.apiextensions().v1().customResourceDefinitions().resource(parse(crd)).create();
            }
            assertThat(api.client.apiextensions().v1().customResourceDefinitions().list().getItems())
                    .extracting(c -> c.getMetadata().getName())
                    .containsExactlyInAnyOrder("nodepools.karpenter.sh", "nodeclaims.karpenter.sh", "ec2nodeclasses.karpenter.k8s.aws");

            List<HasMetadata> seed = Serialization.unmarshal(Files.readString(Path.of("../../samples/nodepools/seed001-v1.yaml")));
            for (HasMetadata o : seed) {
                GenericKubernetesResource g = (GenericKubernetesResource) o;
                KarpenterCrd crd = KarpenterCrd.serving(g.getApiVersion(), g.getKind()).orElseThrow();
                api.client.genericKubernetesResources(context(crd)).resource(g).create();
            }
            GenericKubernetesResource claim = Serialization.unmarshal("""
                    apiVersion: karpenter.sh/v1
                    kind: NodeClaim
                    metadata:
                      name: general-purpose-x7k2p
                      labels: {karpenter.sh/nodepool: general-purpose, node.kubernetes.io/instance-type: m6i.large}
                      finalizers: [karpenter.sh/termination]
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]
                    """, GenericKubernetesResource.class);
            api.client.genericKubernetesResources(context(KarpenterCrd.NODE_CLAIM)).resource(claim).create();

            assertThat(api.client.genericKubernetesResources(context(KarpenterCrd.NODE_POOL)).list().getItems()).hasSize(1);
            assertThat(api.client.genericKubernetesResources(context(KarpenterCrd.EC2_NODE_CLASS)).list().getItems()).hasSize(1);
            GenericKubernetesResource stored = api.client.genericKubernetesResources(context(KarpenterCrd.NODE_CLAIM))
                    .withName("general-purpose-x7k2p").get();
            assertThat(stored.getMetadata().getLabels()).containsEntry("karpenter.sh/nodepool", "general-purpose");
            assertThat(stored.getMetadata().getFinalizers()).containsExactly("karpenter.sh/termination");
        }
    }
}
