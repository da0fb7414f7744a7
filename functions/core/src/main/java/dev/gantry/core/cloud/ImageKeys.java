package dev.gantry.core.cloud;

import dev.gantry.core.requirements.WellKnownLabels;
import java.util.Map;
import java.util.Optional;

/**
 * Which instance types an image serves, as the key of a NodeClass's images ({@link NodeClassResolution.Selected#images},
 * the launch's image per type, a paused rollout's held images). Karpenter's rule (aws {@code pkg/providers/amifamily},
 * {@code Variant.Requirements} and {@code MapToInstanceTypes}), one place for every caller:
 * <ul>
 *   <li>{@code amd64}, {@code arm64}: every type of that architecture. An image selected by id, name, tags or SSM
 *       parameter is known by its architecture only, so it serves GPU types too (the user chose it).</li>
 *   <li>{@code <arch>/standard}, {@code <arch>/nvidia}, {@code <arch>/neuron}: an alias's variants. {@code standard}
 *       serves a type with neither GPUs nor accelerators, {@code nvidia} a type with GPUs ({@code instance-gpu-count}),
 *       {@code neuron} a type with accelerators ({@code instance-accelerator-count}, Inferentia and Trainium). A type
 *       whose variant the alias has no image for (AL2 has no arm64 GPU image) gets none: it is not launched.</li>
 * </ul>
 * An alias is the only term of its class (Karpenter's CEL rule), so one class's keys are all of one kind. Every type
 * with one GPU model carries a GPU count, AMD's (g4ad) too, so they get the NVIDIA image, as in Karpenter (aws
 * {@code pkg/providers/instancetype/types.go}: the GPU labels are set whatever the manufacturer).
 */
public final class ImageKeys {
    public static final String STANDARD = "standard";
    public static final String NVIDIA = "nvidia";
    public static final String NEURON = "neuron";

    private ImageKeys() {
    }

    /** The key of an alias's {@code variant} image for {@code arch}: {@code amd64/nvidia}. */
    public static String of(String arch, String variant) {
        return arch + "/" + variant;
    }

    /** The architecture a key serves: {@code arm64} for {@code arm64} and {@code arm64/nvidia}. */
    public static String arch(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? key : key.substring(0, slash);
    }

    /** The alias variant a key names ({@code nvidia} for {@code amd64/nvidia}), or null for an architecture's key. */
    public static String variant(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? null : key.substring(slash + 1);
    }

    /** The architecture of a type or node by its labels ({@code amd64} when unlabelled, as EC2's default). */
    public static String archOf(Map<String, String> labels) {
        return labels.getOrDefault(WellKnownLabels.ARCH, "amd64");
    }

    /**
     * The alias variant a type or node needs, by its labels: {@link #NVIDIA} with GPUs, {@link #NEURON} with
     * accelerators, else {@link #STANDARD}.
     */
    public static String variantOf(Map<String, String> labels) {
        if (labels.containsKey(WellKnownLabels.INSTANCE_GPU_COUNT)) {
            return NVIDIA;
        }
        return labels.containsKey(WellKnownLabels.INSTANCE_ACCELERATOR_COUNT) ? NEURON : STANDARD;
    }

    /** The key, among {@code images}' own, that serves a type or node with these labels; empty when none does. */
    public static Optional<String> keyFor(Map<String, String> images, Map<String, String> labels) {
        String arch = archOf(labels);
        String exact = of(arch, variantOf(labels));
        if (images.containsKey(exact)) {
            return Optional.of(exact);
        }
        return images.containsKey(arch) ? Optional.of(arch) : Optional.empty();
    }

    /** The image, among {@code images}, that a type or node with these labels launches with; empty when none serves it. */
    public static Optional<String> imageFor(Map<String, String> images, Map<String, String> labels) {
        return keyFor(images, labels).map(images::get);
    }
}
