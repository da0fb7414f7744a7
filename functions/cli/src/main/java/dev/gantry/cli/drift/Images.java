package dev.gantry.cli.drift;

import dev.gantry.core.cloud.ImageKeys;
import dev.gantry.core.cloud.NodeClassResolution;
import dev.gantry.core.model.NodeClass;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What each EC2NodeClass resolves now, offline: the one fact of drift a dump and the YAML cannot give, the image an
 * alias or an SSM parameter points at today. Given with {@code --image KEY[/ARCH[/VARIANT]]=AMI}, where KEY is an
 * EC2NodeClass's name or an alias term ({@code al2023@latest}, matching every class that selects by it), ARCH
 * {@code amd64} (default) or {@code arm64}, and VARIANT an alias's {@code standard}, {@code nvidia} or {@code neuron}
 * image ({@code ImageKeys}): without one, the image stands for every node of that architecture; with one, for the
 * nodes of that variant (GPU nodes for {@code nvidia}), the more specific winning. A class whose terms all name images
 * by id resolves those ids without being told. A class neither told nor pinned by id resolves nothing: AMI drift is not
 * decided for it (as the sweep decides nothing when a lookup fails). Subnets and security groups are never known
 * offline: a dump does not show an instance's.
 */
final class Images {
    private static final Pattern AMI = Pattern.compile("ami-[0-9a-f]{8,17}");
    private static final Set<String> ARCHS = Set.of("amd64", "arm64");
    private static final Set<String> VARIANTS = Set.of(ImageKeys.STANDARD, ImageKeys.NVIDIA, ImageKeys.NEURON);

    /** By key (class name or alias), the image per image key ({@code amd64}, {@code amd64/nvidia}). */
    private final Map<String, Map<String, String>> given;

    private Images(Map<String, Map<String, String>> given) {
        this.given = given;
    }

    /** The {@code --image} values parsed; a value that does not parse throws with a message for the user. */
    static Images parse(List<String> values) {
        Map<String, Map<String, String>> given = new LinkedHashMap<>();
        for (String v : values == null ? List.<String>of() : values) {
            int eq = v.lastIndexOf('=');
            if (eq <= 0 || eq == v.length() - 1) {
                throw new IllegalArgumentException("--image " + v + ": write KEY[/ARCH[/VARIANT]]=AMI, e.g. "
                        + "al2023@latest=ami-0123456789abcdef0 or al2023@latest/amd64/nvidia=ami-0123456789abcdef1");
            }
            String key = v.substring(0, eq).trim();
            String ami = v.substring(eq + 1).trim();
            String arch = "amd64";
            String variant = null;
            int slash = key.indexOf('/');
            if (slash > 0) {
                String[] rest = key.substring(slash + 1).split("/", -1);
                key = key.substring(0, slash);
                arch = rest[0];
                if (rest.length > 2 || (rest.length == 2 && !VARIANTS.contains(rest[1]))) {
                    throw new IllegalArgumentException("--image " + v + ": the variant after the architecture is standard, "
                            + "nvidia or neuron");
                }
                variant = rest.length == 2 ? rest[1] : null;
            }
            if (!AMI.matcher(ami).matches()) {
                throw new IllegalArgumentException("--image " + v + ": '" + ami + "' is not an AMI id (ami-0123456789abcdef0)");
            }
            if (!ARCHS.contains(arch)) {
                throw new IllegalArgumentException("--image " + v + ": architecture '" + arch + "' is amd64 or arm64");
            }
            given.computeIfAbsent(key, k -> new TreeMap<>()).put(variant == null ? arch : ImageKeys.of(arch, variant), ami);
        }
        return new Images(given);
    }

    /** The keys given that name neither a class nor an alias any class selects by. */
    List<String> unused(List<NodeClass> classes) {
        return given.keySet().stream().filter(k -> classes.stream().noneMatch(nc -> nc.name().equals(k)
                || nc.amiSelectorTerms().stream().anyMatch(t -> k.equals(t.alias())))).toList();
    }

    /** The resolution the drift check is given: images only, as known offline. */
    NodeClassResolution resolution() {
        return nc -> images(nc).map(i -> new NodeClassResolution.Selected(i, Set.of(), Set.of()));
    }

    /** The class's images now, by image key; empty when not known offline. */
    Optional<Map<String, String>> images(NodeClass nc) {
        Map<String, String> byClass = given.get(nc.name());
        if (byClass != null) {
            return Optional.of(byClass);
        }
        Map<String, String> out = new TreeMap<>();
        for (NodeClass.AmiSelectorTerm t : nc.amiSelectorTerms()) {
            if (t.alias() != null && given.containsKey(t.alias())) {
                out.putAll(given.get(t.alias()));
            }
        }
        if (!out.isEmpty()) {
            return Optional.of(out);
        }
        if (!nc.amiSelectorTerms().isEmpty() && nc.amiSelectorTerms().stream().allMatch(t -> t.id() != null)) {
            // Pinned by id: the architecture of each id is not known offline; keys that are no architecture make the
            // check compare the node's image with any of them.
            nc.amiSelectorTerms().forEach(t -> out.put("id:" + t.id(), t.id()));
            return Optional.of(out);
        }
        return Optional.empty();
    }
}
