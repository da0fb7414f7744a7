package dev.gantry.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.s3.assets.Asset;
import software.constructs.Construct;

/**
 * The deploy bundle ({@code -c config=FILE}): the user's NodePool/EC2NodeClass/CapacityBuffer YAML, validated at
 * synth and shipped as one multi-document YAML object in the CDK asset bucket. The cluster is the only source of
 * truth for configuration; the bundle is a seed: only the attach function reads it (from the S3 URL in
 * {@code GANTRY_DEPLOY_BUNDLE}) and server-side applies it to the cluster at each deploy that changes it. No handler
 * reads it.
 *
 * <p>Why S3 and not an environment variable or the custom resource's properties: Lambda caps all environment variables
 * at 4 KB, and real NodePool sets outgrow it; properties would put the whole bundle in the template. An asset is
 * content-addressed, so a YAML change changes the key, the attach function's variable and version, and therefore
 * re-runs the attach step; an unchanged bundle re-applies nothing.
 */
public final class ConfigBundle extends Construct {
    private final Asset asset;
    private final List<Path> files;

    public ConfigBundle(Construct scope, String id, Path config, ConfigValidator validator) {
        super(scope, id);
        files = yamlFiles(config);
        List<String> errors = validator.errors(files);
        if (!errors.isEmpty()) {
            throw new SynthInputException(String.join("\n", errors));
        }
        asset = Asset.Builder.create(this, "Asset").path(stage(files).toString()).build();
    }

    /** The files bundled, in bundle order. */
    public List<Path> files() {
        return files;
    }

    /**
     * The {@code spec.role} of each EC2NodeClass in the bundle that names one, by class name (an EKS Auto Mode
     * NodeClass, or one naming {@code instanceProfile}, is not listed).
     */
    public java.util.Map<String, String> nodeClassRoles() {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        dev.gantry.config.ConfigLoader.load(files, dev.gantry.config.LoadOptions.DEFAULT).nodeClasses().stream()
                .filter(c -> "EC2NodeClass".equals(c.kind()) && c.role() != null)
                .forEach(c -> out.put(c.name(), c.role()));
        return out;
    }

    /** {@code s3://bucket/key} of the bundle. */
    public String s3Url() {
        return asset.getS3ObjectUrl();
    }

    /** Read access to exactly this object: no bucket listing, no other keys. */
    public PolicyStatement readStatement() {
        return PolicyStatement.Builder.create().sid("AllowReadGantryConfig").actions(List.of("s3:GetObject"))
                .resources(List.of(asset.getBucket().arnForObjects(asset.getS3ObjectKey()))).build();
    }

    static List<Path> yamlFiles(Path config) {
        if (Files.isRegularFile(config)) {
            return List.of(config);
        }
        if (!Files.isDirectory(config)) {
            throw new SynthInputException("config " + config.normalize()
                    + " does not exist: pass -c config=<NodePool/NodeClass YAML file or directory>");
        }
        try (Stream<Path> walk = Files.walk(config)) {
            List<Path> found = walk.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                    .sorted().toList();
            if (found.isEmpty()) {
                throw new SynthInputException("config " + config.normalize() + " holds no .yaml or .yml files");
            }
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Concatenates the files into one YAML stream, each document headed by its source for the handlers' logs. */
    private static Path stage(List<Path> files) {
        try {
            StringBuilder out = new StringBuilder();
            for (Path f : files) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                out.append("---\n# source: ").append(f.getFileName()).append('\n').append(text);
                if (!text.endsWith("\n")) {
                    out.append('\n');
                }
            }
            Path dir = Files.createTempDirectory("gantry-config");
            return Files.writeString(dir.resolve("gantry-config.yaml"), out.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
