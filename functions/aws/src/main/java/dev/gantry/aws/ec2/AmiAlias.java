package dev.gantry.aws.ec2;

import java.util.LinkedHashMap;
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
     * The SSM parameter per Kubernetes architecture ({@code amd64}, {@code arm64}) for the standard variant.
     * GPU variants (nvidia, neuron) are not resolved: GPU types launch with the standard image.
     */
    public Map<String, String> ssmParameters(String k8s) {
        Map<String, String> out = new LinkedHashMap<>();
        switch (family) {
            case "al2023" -> {
                out.put("amd64", al2023(k8s, "x86_64"));
                out.put("arm64", al2023(k8s, "arm64"));
            }
            case "al2" -> {
                out.put("amd64", "/aws/service/eks/optimized-ami/" + k8s + "/amazon-linux-2/"
                        + (isLatest() ? "recommended" : "amazon-eks-node-" + k8s + "-" + version) + "/image_id");
                out.put("arm64", "/aws/service/eks/optimized-ami/" + k8s + "/amazon-linux-2-arm64/"
                        + (isLatest() ? "recommended" : "amazon-eks-arm64-node-" + k8s + "-" + version) + "/image_id");
            }
            default -> {
                // Bottlerocket versions are written v1.20.3 on GitHub but 1.20.3 in the parameter path.
                String v = version.startsWith("v") ? version.substring(1) : version;
                out.put("amd64", "/aws/service/bottlerocket/aws-k8s-" + k8s + "/x86_64/" + v + "/image_id");
                out.put("arm64", "/aws/service/bottlerocket/aws-k8s-" + k8s + "/arm64/" + v + "/image_id");
            }
        }
        return out;
    }

    private String al2023(String k8s, String arch) {
        String name = isLatest() ? "recommended" : "amazon-eks-node-al2023-" + arch + "-standard-" + k8s + "-" + version;
        return "/aws/service/eks/optimized-ami/" + k8s + "/amazon-linux-2023/" + arch + "/standard/" + name + "/image_id";
    }
}
