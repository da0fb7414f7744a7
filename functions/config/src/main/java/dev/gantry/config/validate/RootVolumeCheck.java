package dev.gantry.config.validate;

import dev.gantry.config.LoadResult;
import dev.gantry.config.LoadedObject;
import dev.gantry.config.source.Diagnostic;
import dev.gantry.config.source.SourceLocation;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cloud.ImageKeys;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code gantry validate}'s check of an EC2NodeClass's root volume against the images its alias launches. EC2 refuses
 * a launch whose block device mapping gives the image's root device less than the image's root snapshot
 * ({@code InvalidBlockDeviceMapping}: "Volume of size 2GB is smaller than snapshot 'snap-…', expect size >= 4GB"),
 * every launch of that image, and only at launch: Karpenter accepts the class and each launch fails
 * (aws/karpenter-provider-aws#2400, #5283, #7928). Warnings, at the {@code volumeSize}: the sizes are the images' as
 * AWS builds them, not read from EC2 offline:
 * <ul>
 *   <li>AL2023: 20 GiB, every variant (awslabs/amazon-eks-ami#1581): a smaller {@code /dev/xvda} refuses every
 *       launch;</li>
 *   <li>Bottlerocket: {@code /dev/xvda} 2 GB on the standard images, 4 GB on the NVIDIA ones
 *       (bottlerocket-os/bottlerocket#1118; Karpenter's default is 4Gi): under 4Gi, the pool's GPU types are refused
 *       (their launches use the NVIDIA image, as the alias resolves it), under 2Gi every type.</li>
 * </ul>
 * Only classes that select their images by an alias (or name a family alone): other images' snapshots are unknown
 * offline. AL2 is left out (its snapshot sizes were not checked).
 */
public final class RootVolumeCheck {
    private static final long GIB = 1L << 30;

    private RootVolumeCheck() {
    }

    /**
     * The warnings of every EC2NodeClass the result's NodePools launch with; {@code pools}: the types each pool allows
     * ({@link CatalogCheck}), whose GPU types a Bottlerocket class's NVIDIA image serves.
     */
    public static List<Diagnostic> check(LoadResult result, List<CatalogCheck.PoolCheck> pools) {
        java.util.Map<String, List<InstanceType>> allowed = new java.util.HashMap<>();
        pools.forEach(c -> allowed.put(c.nodePool(), c.allowed()));
        List<Diagnostic> out = new ArrayList<>();
        Set<String> warned = new LinkedHashSet<>();
        for (NodePool p : result.nodePools()) {
            NodeClass nc = CatalogCheck.nodeClassOf(p, result);
            if (!followsAlias(nc)) {
                continue;
            }
            String family = nc.effectiveAmiFamily();
            for (int i = 0; i < nc.blockDeviceMappings().size(); i++) {
                NodeClass.BlockDeviceMapping m = nc.blockDeviceMappings().get(i);
                if (!"/dev/xvda".equals(m.deviceName()) || m.ebs() == null || m.ebs().volumeSize() == null
                        || m.ebs().snapshotId() != null) {
                    continue;
                }
                long gib = (m.ebs().volumeSize().toUnits() + GIB - 1) / GIB;
                String why = null;
                if ("AL2023".equals(family) && gib < 20) {
                    why = "EC2 refuses every launch: the AL2023 images' root snapshot is 20 GiB (expect size >= 20GB)";
                } else if ("Bottlerocket".equals(family) && gib < 2) {
                    why = "EC2 refuses every launch: the Bottlerocket images' root snapshot is 2 GB (expect size >= 2GB)";
                } else if ("Bottlerocket".equals(family) && gib < 4) {
                    List<String> gpu = gpuTypes(allowed.getOrDefault(p.name(), List.of()));
                    if (!gpu.isEmpty()) {
                        why = "EC2 refuses the launches of NodePool " + p.name() + "'s GPU types (" + names(gpu)
                                + "): they launch on Bottlerocket's NVIDIA image, whose root snapshot is 4 GB (expect size >= 4GB)";
                    }
                }
                String field = "spec.blockDeviceMappings[" + i + "].ebs.volumeSize";
                if (why != null && warned.add(nc.name() + "/" + why)) {
                    out.add(diagnostic(result.object(nc.kind(), nc.name()), nc, field, "a " + gib + " GiB root volume: " + why));
                }
            }
        }
        return out;
    }

    /** Whether the class's images come from an alias: its only term, or no term and a family (v1beta1). */
    private static boolean followsAlias(NodeClass nc) {
        return nc.amiSelectorTerms().isEmpty() ? nc.amiFamily() != null
                : nc.amiSelectorTerms().size() == 1 && nc.amiSelectorTerms().getFirst().alias() != null;
    }

    private static List<String> gpuTypes(List<InstanceType> types) {
        // The types the alias's NVIDIA image serves, by the one rule launches use.
        return types.stream().filter(t -> ImageKeys.NVIDIA.equals(ImageKeys.variantOf(t.labels())))
                .map(InstanceType::name).sorted().toList();
    }

    private static String names(List<String> types) {
        return types.size() <= 3 ? String.join(", ", types)
                : String.join(", ", types.subList(0, 3)) + " and " + (types.size() - 3) + " more";
    }

    private static Diagnostic diagnostic(LoadedObject at, NodeClass nc, String field, String message) {
        SourceLocation loc = at == null ? null : at.fields().getOrDefault(field, at.location());
        return new Diagnostic(loc == null ? "" : loc.path(), loc == null ? 1 : loc.line(), loc == null ? 1 : loc.column(),
                (at == null ? nc.kind() : at.kind()) + "/" + nc.name(), field, message);
    }
}
