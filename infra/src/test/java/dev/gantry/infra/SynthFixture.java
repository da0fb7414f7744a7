package dev.gantry.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.assertions.Template;

/**
 * One synthesized Gantry stack shared by the test classes (jsii start-up and synth take seconds), built from six
 * tiny fake jars and one small NodePool file, so asset hashing stays cheap.
 */
final class SynthFixture {
    static final String CLUSTER = "demo";
    static final List<String> FUNCTIONS = List.of("webhook", "provisioner", "interruption", "termination", "sweep",
            "attach");
    static final String NODEPOOL = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata:
              name: default
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements:
                    - {key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand]}
            ---
            apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata:
              name: default
            spec:
              role: KarpenterNodeRole-demo
              amiSelectorTerms: [{alias: al2023@latest}]
              subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
              securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
            """;

    /** A concrete account and region, as in a real deploy: ARNs then carry literals, not pseudo-parameters. */
    static final Environment ENV = Environment.builder().account("111111111111").region("eu-west-1").build();

    private static SynthFixture shared;

    final GantryStack stack;
    final Template template;
    final Path dir;

    private SynthFixture(Map<String, Object> context, ConfigValidator validator, Environment env) {
        dir = tempDir();
        App app = new App(AppProps.builder().context(withDefaults(context, dir)).build());
        stack = GantryApp.build(app, dir, validator, env);
        template = Template.fromStack(stack);
    }

    /** The default stack: cluster {@value #CLUSTER}, no VPC, the standard validator. */
    static synchronized SynthFixture shared() {
        if (shared == null) {
            shared = new SynthFixture(Map.of(), ConfigValidators.standard(), ENV);
        }
        return shared;
    }

    /** A fresh stack with extra context (overriding the defaults). */
    static SynthFixture with(Map<String, Object> context) {
        return new SynthFixture(context, ConfigValidators.standard(), ENV);
    }

    /** A fresh default stack with no account or region (ARNs use pseudo-parameters). */
    static SynthFixture environmentAgnostic() {
        return environmentAgnostic(Map.of());
    }

    /** A fresh environment-agnostic stack with extra context (overriding the defaults). */
    static SynthFixture environmentAgnostic(Map<String, Object> context) {
        return new SynthFixture(context, ConfigValidators.standard(), null);
    }

    /** Builds (without synthesizing) an app from this context; for tests that expect synth to fail. */
    static GantryStack build(Map<String, Object> context, Path dir) {
        App app = new App(AppProps.builder().context(context).build());
        return GantryApp.build(app, dir, ConfigValidators.standard(), ENV);
    }

    static Map<String, Object> withDefaults(Map<String, Object> context, Path dir) {
        var all = new java.util.HashMap<String, Object>();
        all.put("clusterName", CLUSTER);
        all.put("assetsDir", dir.resolve("dist").toString());
        all.put("config", dir.resolve("nodepools").toString());
        all.putAll(context);
        return all;
    }

    /** A directory holding {@code dist/<function>.jar} for all six functions and {@code nodepools/default.yaml}. */
    static Path tempDir() {
        try {
            Path dir = Files.createTempDirectory("gantry-infra-test");
            Files.createDirectories(dir.resolve("dist"));
            for (String f : FUNCTIONS) {
                writeJar(dir.resolve("dist/" + f + ".jar"), f);
            }
            Files.createDirectories(dir.resolve("nodepools"));
            Files.writeString(dir.resolve("nodepools/default.yaml"), NODEPOOL);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeJar(Path jar, String name) throws IOException {
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jar))) {
            zip.putNextEntry(new ZipEntry("META-INF/MANIFEST.MF"));
            zip.write(("Manifest-Version: 1.0\nImplementation-Title: " + name + "\n").getBytes());
            zip.closeEntry();
        }
    }
}
