package dev.gantry.aws.ec2;

import dev.gantry.core.cloud.ImageKeys;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An {@code amiSelectorTerms} alias, {@code family@version} ({@code al2023@latest}, {@code bottlerocket@v1.20.3}),
 * and the public SSM parameters that name its images, as Karpenter reads them (pkg/providers/amifamily).
 */
public record AmiAlias(String family, String version) {
    public static final String LATEST = "latest";

    /** Parses {@code family@version}. @throws IllegalArgumentException for another shape or an unknown family */
    public static AmiAlias parse(String alias) {
        String[] parts = alias.split("@", 2);
        if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
            throw new IllegalArgumentException("an AMI alias is family@version, got '" + alias + "'");
        }
        String family = parts[0].toLowerCase(Locale.ROOT);
        if (!family.equals("al2023") && !family.equals("al2") && !family.equals("bottlerocket")) {
            throw new IllegalArgumentException("AMI alias family '" + parts[0] + "' is not supported (al2023, al2, bottlerocket)");
        }
        return new AmiAlias(family, parts[1]);
    }

    public boolean isLatest() {
        return LATEST.equals(version);
    }

    /**
     * The public SSM parameters that name the alias's images, each with the variants its image serves
     * ({@link ImageKeys}: {@code standard}, {@code nvidia}, {@code neuron}), in Karpenter v1.14's tables
     * ({@code al2023.go}, {@code al2.go}, {@code bottlerocket.go}): AL2023 publishes standard and NVIDIA images for both
     * architectures and a Neuron image for x86_64; AL2 one GPU image (x86_64 only) that serves NVIDIA and Neuron types;
     * Bottlerocket an NVIDIA flavour per architecture, its standard x86_64 image serving Neuron types too. The image's
     * architecture (DescribeImages) completes each key.
     */
    public Map<String, List<String>> ssmParameters(String k8s) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        switch (family) {
            case "al2023" -> {
                for (String variant : List.of(ImageKeys.STANDARD, ImageKeys.NVIDIA, ImageKeys.NEURON)) {
                    out.put(al2023(k8s, "x86_64", variant), List.of(variant));
                }
                for (String variant : List.of(ImageKeys.STANDARD, ImageKeys.NVIDIA)) {
                    out.put(al2023(k8s, "arm64", variant), List.of(variant));
                }
            }
            case "al2" -> {
                out.put("/aws/service/eks/optimized-ami/" + k8s + "/amazon-linux-2/"
                        + (isLatest() ? "recommended" : "amazon-eks-node-" + k8s + "-" + version) + "/image_id",
                        List.of(ImageKeys.STANDARD));
                out.put("/aws/service/eks/optimized-ami/" + k8s + "/amazon-linux-2-arm64/"
                        + (isLatest() ? "recommended" : "amazon-eks-arm64-node-" + k8s + "-" + version) + "/image_id",
                        List.of(ImageKeys.STANDARD));
                out.put("/aws/service/eks/optimized-ami/" + k8s + "/amazon-linux-2-gpu/"
                        + (isLatest() ? "recommended" : "amazon-eks-gpu-node-" + k8s + "-" + version) + "/image_id",
                        List.of(ImageKeys.NEURON, ImageKeys.NVIDIA));
            }
            default -> {
                // Bottlerocket versions are written v1.20.3 on GitHub but 1.20.3 in the parameter path.
                String v = version.startsWith("v") ? version.substring(1) : version;
                out.put("/aws/service/bottlerocket/aws-k8s-" + k8s + "/x86_64/" + v + "/image_id",
                        List.of(ImageKeys.STANDARD, ImageKeys.NEURON));
                out.put("/aws/service/bottlerocket/aws-k8s-" + k8s + "/arm64/" + v + "/image_id", List.of(ImageKeys.STANDARD));
                out.put("/aws/service/bottlerocket/aws-k8s-" + k8s + "-nvidia/x86_64/" + v + "/image_id", List.of(ImageKeys.NVIDIA));
                out.put("/aws/service/bottlerocket/aws-k8s-" + k8s + "-nvidia/arm64/" + v + "/image_id", List.of(ImageKeys.NVIDIA));
            }
        }
        return out;
    }

    private String al2023(String k8s, String arch, String variant) {
        String name = isLatest() ? "recommended" : "amazon-eks-node-al2023-" + arch + "-" + variant + "-" + k8s + "-" + version;
        return "/aws/service/eks/optimized-ami/" + k8s + "/amazon-linux-2023/" + arch + "/" + variant + "/" + name + "/image_id";
    }
}
