package dev.gantry.kube.objects.dump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.model.Pod;
import dev.gantry.testing.dumps.ClusterDumpGenerator;
import dev.gantry.testing.dumps.DumpNode;
import dev.gantry.testing.dumps.DumpPdb;
import dev.gantry.testing.dumps.DumpPod;
import dev.gantry.testing.dumps.KubeDump;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shapes a dump comes in, as kubectl and people write them, all read to the same cluster. */
class ClusterDumpReadingTest {
    @TempDir
    Path dir;

    private static KubeDump small() {
        return new KubeDump().add(DumpNode.named("n1")).add(DumpNode.named("n2").type("c6a.large"))
                .add(DumpPod.daemonSet("kube-system", "aws-node", "n1", "25m", "128Mi"))
                .add(DumpPod.named("web-1").on("n1")).add(DumpPod.named("web-2").on("n2"))
                .add(DumpPdb.named("default", "web"));
    }

    private static String summary(ClusterDump d) {
        return d.nodes().size() + " nodes, " + d.pods().stream().map(Pod::key).sorted().toList() + ", " + d.pdbs().size() + " pdbs, "
                + d.daemonSets().size() + " daemonsets";
    }

    @Test
    void aKubectlYamlListAndItsJsonReadTheSame() {
        ClusterDump yaml = ClusterDump.read(List.of(small().writeYaml(dir.resolve("c.yaml"))), DumpProgress.NONE);
        ClusterDump json = ClusterDump.read(List.of(small().writeJson(dir.resolve("c.json"))), DumpProgress.NONE);
        assertThat(summary(yaml)).isEqualTo("2 nodes, [default/web-1, default/web-2, kube-system/aws-node-" + suffix("n1") + "], 1 pdbs, 1 daemonsets");
        assertThat(yaml.nodes()).isEqualTo(json.nodes());
        assertThat(yaml.pods()).isEqualTo(json.pods());
        assertThat(yaml.pdbs()).isEqualTo(json.pdbs());
        assertThat(yaml.daemonSets()).isEqualTo(json.daemonSets());
        assertThat(yaml.claims()).isEqualTo(json.claims());
    }

    @SuppressWarnings("unchecked")
    private static java.util.Map<String, Object> yaml(String yaml) {
        return dev.gantry.kube.objects.KubeJson.YAML.readValue(yaml, java.util.Map.class);
    }

    @Test
    void configurationObjectsAreKeptWholeAsTheFunctionsListThemAndWorkloadsOnlyWhenABufferNamesThem() {
        KubeDump dump = small()
                .addServed(yaml("""
                        apiVersion: karpenter.sh/v1
                        kind: NodePool
                        metadata: {name: general}
                        spec:
                          template:
                            spec:
                              nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                              requirements: [{key: team.example.com/tier, operator: In, values: [web]}]
                        """), "101")
                .addServed(yaml("""
                        apiVersion: autoscaling.x-k8s.io/v1beta1
                        kind: CapacityBuffer
                        metadata: {name: warm, namespace: default}
                        spec: {podTemplateRef: {name: warm}, replicas: 2}
                        """), "102")
                .addServed(yaml("""
                        apiVersion: autoscaling.x-k8s.io/v1beta1
                        kind: CapacityBuffer
                        metadata: {name: web-spare, namespace: shop}
                        spec: {scalableRef: {apiGroup: apps, kind: Deployment, name: web}, percentage: 50}
                        """), "103")
                .addServed(yaml("""
                        apiVersion: v1
                        kind: PodTemplate
                        metadata: {name: warm, namespace: default}
                        template: {spec: {containers: [{name: pause, image: "registry.k8s.io/pause:3.10"}]}}
                        """), "104")
                .addServed(yaml("""
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: web, namespace: shop}
                        spec: {replicas: 4, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: "nginx:1.27"}]}}}
                        """), "105")
                .addServed(yaml("""
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: web, namespace: default}
                        spec: {replicas: 1, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: "nginx:1.27"}]}}}
                        """), "106");
        for (Path file : List.of(dump.writeYaml(dir.resolve("cfg.yaml")), dump.writeJson(dir.resolve("cfg.json")))) {
            ClusterDump d = ClusterDump.read(List.of(file), DumpProgress.NONE);
            assertThat(d.configObjects()).extracting(o -> o.key() + "@" + o.resourceVersion()).as(file.toString())
                    .containsExactly("NodePool/general@101", "CapacityBuffer/default/warm@102", "CapacityBuffer/shop/web-spare@103",
                            "PodTemplate/default/warm@104", "Deployment/shop/web@105");
            assertThat(d.configObjects()).allSatisfy(o -> assertThat(o.json()).startsWith("{").doesNotContain("managedFields"));
            assertThat(d.configObjects().getFirst().json()).contains("team.example.com/tier");
            // The Deployment no buffer names is not kept, but counted.
            assertThat(d.stats().ignored()).containsEntry("Deployment", 1);
            assertThat(summary(d)).startsWith("2 nodes");
        }
    }

    /** A kubectl List of workloads: web (which the buffer names), 1password (named too, not a plain name) and legacy. */
    private static String workloads(String legacySpec, String webSpec) {
        return """
                apiVersion: v1
                items:
                - apiVersion: apps/v1
                  kind: Deployment
                  metadata:
                    name: legacy
                    namespace: shop
                  spec:
                %s
                - apiVersion: autoscaling.x-k8s.io/v1beta1
                  kind: CapacityBuffer
                  metadata:
                    name: web-spare
                    namespace: shop
                  spec:
                    scalableRef: {apiGroup: apps, kind: Deployment, name: web}
                - apiVersion: autoscaling.x-k8s.io/v1beta1
                  kind: CapacityBuffer
                  metadata:
                    name: vault-spare
                    namespace: shop
                  spec:
                    scalableRef: {apiGroup: apps, kind: ReplicaSet, name: 1password}
                - apiVersion: apps/v1
                  kind: ReplicaSet
                  metadata:
                    name: "1password"
                    namespace: shop
                  spec: {replicas: 1, selector: {matchLabels: {app: vault}}, template: {metadata: {labels: {app: vault}}, spec: {containers: [{name: v, image: vault}]}}}
                - apiVersion: apps/v1
                  kind: Deployment
                  metadata:
                    name: "web"
                    namespace: 'shop'
                  spec:
                %s
                kind: List
                metadata:
                  resourceVersion: ""
                """.formatted(legacySpec, webSpec);
    }

    private static final String GOOD_SPEC = "    replicas: 4\n    selector: {matchLabels: {app: web}}\n"
            + "    template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: \"nginx:1.27\"}]}}";
    /** Not YAML: a flow sequence never closed. */
    private static final String BROKEN_SPEC = "    replicas: [4";

    @Test
    void aWorkloadNoBufferNamesIsNotParsedSoOneThatDoesNotReadLosesNothing() throws IOException {
        // Dumps of `kubectl get all -A` hold thousands of Deployments and ReplicaSets; buffers name a few. The others
        // are counted, never parsed: one that would not read does not stop the dump (it did when all were parsed).
        Path f = Files.writeString(dir.resolve("workloads.yaml"), workloads(BROKEN_SPEC, GOOD_SPEC));
        ClusterDump d = ClusterDump.read(List.of(f), DumpProgress.NONE);
        assertThat(d.configObjects()).extracting(o -> o.key())
                .containsExactly("CapacityBuffer/shop/web-spare", "CapacityBuffer/shop/vault-spare", "ReplicaSet/shop/1password",
                        "Deployment/shop/web");
        assertThat(d.configObjects().getLast().json()).contains("nginx:1.27");
        assertThat(d.stats().ignored()).containsEntry("Deployment", 1);
    }

    @Test
    void aWorkloadABufferNamesIsReadWholeAndOneThatDoesNotReadIsAnError() throws IOException {
        Path f = Files.writeString(dir.resolve("workloads.yaml"), workloads(GOOD_SPEC, BROKEN_SPEC));
        assertThatThrownBy(() -> ClusterDump.read(List.of(f), DumpProgress.NONE)).isInstanceOf(DumpException.class)
                .hasMessageStartingWith(f + ":").hasMessageContaining("not YAML");
    }

    @Test
    void aGeneratedDumpWithManagedFieldsReadsTheSameFromYamlAsFromJson() {
        // YAML items are read straight into fabric8's model from the parser; JSON goes through a tree: one meaning.
        KubeDump dump = ClusterDumpGenerator.generate(30, 7);
        ClusterDump yaml = ClusterDump.read(List.of(dump.writeYaml(dir.resolve("g.yaml"))), DumpProgress.NONE);
        ClusterDump json = ClusterDump.read(List.of(dump.writeJson(dir.resolve("g.json"))), DumpProgress.NONE);
        assertThat(yaml.pods()).hasSizeGreaterThan(500).isEqualTo(json.pods());
        assertThat(yaml.nodes()).hasSize(30).isEqualTo(json.nodes());
        assertThat(yaml.pdbs()).isNotEmpty().isEqualTo(json.pdbs());
        assertThat(yaml.daemonSets()).isNotEmpty().isEqualTo(json.daemonSets());
        assertThat(yaml.claims()).isEqualTo(json.claims());
        assertThat(yaml.namespaceLabels()).isEqualTo(json.namespaceLabels());
        assertThat(yaml.stats().takenAt()).isEqualTo(json.stats().takenAt());
    }

    @Test
    void aSyntaxErrorInAnItemOfAKubectlListIsAtItsLineAndColumnInTheFile() throws IOException {
        Path f = Files.writeString(dir.resolve("syntax-item.yaml"), """
                apiVersion: v1
                items:
                - apiVersion: v1
                  kind: Pod
                  metadata:
                    name: p
                    namespace: default
                  spec:
                # a comment at column 0 inside the item is a line of the file too
                    containers:
                    - name: c
                      image: [unclosed
                    nodeName: n1
                kind: List
                """);
        // The ':' after nodeName, at line 13 column 13 of the file: the item is parsed as written (dedented, it said
        // column 11), and a comment line dropped from the item no longer moves the lines after it (it said line 12).
        assertThatThrownBy(() -> ClusterDump.read(List.of(f), DumpProgress.NONE)).isInstanceOf(DumpException.class)
                .hasMessageStartingWith(f + ":13:13: not YAML");
    }

    @Test
    void objectsAsSeparateDocumentsInADirectoryReadAsOneList() throws IOException {
        String text = small().yaml();
        ClusterDump list = ClusterDump.read(List.of(Files.writeString(dir.resolve("list.yaml"), text)), DumpProgress.NONE);
        Path docs = Files.createDirectories(dir.resolve("docs"));
        String multi = "# kubectl get ... -o yaml, one object per document\n" + small().yamlDocuments();
        Files.writeString(docs.resolve("a.yaml"), multi);
        Files.writeString(docs.resolve("ignored.txt"), "not read: a directory is read for *.yaml, *.yml and *.json");
        ClusterDump fromDocs = ClusterDump.read(List.of(docs), DumpProgress.NONE);
        assertThat(summary(fromDocs)).isEqualTo(summary(list));
        assertThat(fromDocs.pods()).isEqualTo(list.pods());
    }

    @Test
    void aHandWrittenListWithIndentedItemsIsReadWhole() throws IOException {
        Path f = Files.writeString(dir.resolve("hand.yaml"), """
                apiVersion: v1
                kind: List
                items:
                  - apiVersion: v1
                    kind: Node
                    metadata: {name: n1, labels: {karpenter.sh/nodepool: default, karpenter.sh/initialized: "true"}}
                    status: {allocatable: {cpu: "2", memory: 4Gi, pods: "29"}, conditions: [{type: Ready, status: "True"}]}
                  - {apiVersion: v1, kind: Service, metadata: {name: s}}
                """);
        ClusterDump d = ClusterDump.read(List.of(f), DumpProgress.NONE);
        assertThat(d.nodes()).singleElement().satisfies(n -> assertThat(n.ready()).isTrue());
        assertThat(d.stats().ignored()).containsEntry("Service", 1);
    }

    @Test
    void aDumpOverThreeMebibytesIsRead() throws IOException {
        Path f = ClusterDumpGenerator.generate(60, 7).writeYaml(dir.resolve("big.yaml"));
        assertThat(Files.size(f)).isGreaterThan(3L << 20);
        ClusterDump d = ClusterDump.read(List.of(f), DumpProgress.NONE);
        assertThat(d.nodes()).hasSize(60);
        assertThat(d.pods().size()).isGreaterThan(600);
    }

    @Test
    void aBadValueIsOneLineNamingTheFileAndTheObject() throws IOException {
        String yaml = new KubeDump().add(DumpNode.named("n1")).add(DumpPod.named("web-1").on("n1").requests("2 cores", "1Gi")).yaml();
        Path f = Files.writeString(dir.resolve("bad.yaml"), yaml);
        assertThatThrownBy(() -> ClusterDump.read(List.of(f), DumpProgress.NONE)).isInstanceOf(DumpException.class)
                .hasMessageStartingWith(f + ":").hasMessageContaining("Pod default/web-1").hasMessageNotContaining("\n")
                .hasMessageContaining("2 cores");
    }

    @Test
    void anAliasIsRefusedWithTheReasonNotReadAsText() throws IOException {
        Path f = Files.writeString(dir.resolve("alias.yaml"), """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: p
                  labels: &l {app: web}
                  annotations: *l
                spec: {containers: [{name: c}]}
                """);
        assertThatThrownBy(() -> ClusterDump.read(List.of(f), DumpProgress.NONE)).isInstanceOf(DumpException.class)
                .hasMessageContaining("alias *l").hasMessageContaining("kubectl never writes aliases").hasMessageContaining(":6:");
    }

    @Test
    void anAliasInAnItemOfAKubectlListIsRefusedAtItsLineInTheFile() throws IOException {
        Path f = Files.writeString(dir.resolve("alias-item.yaml"), """
                apiVersion: v1
                items:
                - apiVersion: v1
                  kind: Pod
                  metadata:
                    labels: &l
                      app: web
                    annotations: *l
                    name: p
                    namespace: default
                  spec:
                    containers:
                    - name: c
                kind: List
                metadata:
                  resourceVersion: ""
                """);
        assertThatThrownBy(() -> ClusterDump.read(List.of(f), DumpProgress.NONE)).isInstanceOf(DumpException.class)
                .hasMessageStartingWith(f + ":8:").hasMessageContaining("alias *l").hasMessageContaining("kubectl never writes aliases");
    }

    @Test
    void anItemOverThreeMebibytesInAKubectlListIsRead() throws IOException {
        String big = "x".repeat(4 << 20);
        Path f = Files.writeString(dir.resolve("big-item.yaml"), """
                apiVersion: v1
                items:
                - apiVersion: v1
                  kind: Namespace
                  metadata:
                    annotations:
                      big: %s
                    labels:
                      team: a
                    name: big
                kind: List
                metadata:
                  resourceVersion: ""
                """.formatted(big));
        ClusterDump d = ClusterDump.read(List.of(f), DumpProgress.NONE);
        assertThat(d.namespaceLabels()).containsEntry("big", java.util.Map.of("team", "a"));
    }

    @Test
    void notYamlSaysWhere() throws IOException {
        Path f = Files.writeString(dir.resolve("broken.yaml"), "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: \"p\n  spec: {}\n");
        assertThatThrownBy(() -> ClusterDump.read(List.of(f), DumpProgress.NONE)).isInstanceOf(DumpException.class)
                .hasMessageStartingWith(f + ":").hasMessageContaining("not YAML");
    }

    @Test
    void aLongReadReportsProgressAndTheReadSaysWhatItFound() {
        Path f = ClusterDumpGenerator.generate(20, 3).writeYaml(dir.resolve("c.yaml"));
        List<String> lines = new ArrayList<>();
        ClusterDump d = ClusterDump.read(List.of(f), lines::add);
        assertThat(d.stats().files()).isEqualTo(1);
        assertThat(d.stats().objects()).isEqualTo(d.nodes().size() + d.pods().size() + d.pdbs().size());
        assertThat(d.stats().inferredDaemonSets()).isEqualTo(3);
        assertThat(lines).allMatch(l -> l.startsWith("read") || l.startsWith("reading"));
    }

    private static String suffix(String node) {
        return String.format("%05x", node.hashCode() & 0xfffff);
    }
}
