package dev.gantry.simulator.world.kube;

import dev.gantry.core.model.NodeClass;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The scenario's configuration put in the simulated API server before the run, as the deploy-time apply does. */
public final class SimulatedConfig {
    private SimulatedConfig() {
    }

    /**
     * Applies the NodePools and NodeClasses of {@code files} (files, or directories of {@code *.yaml}/{@code *.yml}, as
     * the config reader takes them) to {@code store}; then, for each EC2NodeClass in {@code classes} that the files do
     * not define ({@code defined}), an AL2023 EC2NodeClass of that name, as {@code gantry plan} assumes one.
     */
    public static void seed(ConfigStore store, List<Path> files, List<NodeClass> classes, List<NodeClass> defined) {
        for (Path f : files) {
            for (Path file : expand(f)) {
                try {
                    store.applyYaml(Files.readString(file));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        for (NodeClass c : classes) {
            boolean missing = defined.stream().noneMatch(d -> d.name().equals(c.name()) && d.kind().equals(c.kind()));
            if (missing && "EC2NodeClass".equals(c.kind()) && !store.has("EC2NodeClass", c.name())) {
                store.apply("EC2NodeClass", c.name(), al2023(c.name()));
            }
        }
    }

    private static Map<String, Object> al2023(String name) {
        Map<String, Object> discovery = Map.of("tags", Map.of("karpenter.sh/discovery", "sim"));
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("apiVersion", "karpenter.k8s.aws/v1");
        o.put("kind", "EC2NodeClass");
        o.put("metadata", new LinkedHashMap<>(Map.of("name", name)));
        o.put("spec", Map.of("amiSelectorTerms", List.of(Map.of("alias", "al2023@latest")), "role", "KarpenterNodeRole-sim",
                "subnetSelectorTerms", List.of(discovery), "securityGroupSelectorTerms", List.of(discovery)));
        return o;
    }

    private static List<Path> expand(Path p) {
        if (!Files.isDirectory(p)) {
            return List.of(p);
        }
        try (Stream<Path> s = Files.walk(p)) {
            return s.filter(Files::isRegularFile).filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
