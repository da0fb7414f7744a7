package dev.gantry.handlers;

import dev.gantry.config.cluster.ClusterConfigReader;
import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.config.ConfigObject;
import dev.gantry.core.provisioning.GantryConfig;
import java.time.Instant;
import java.util.List;

/**
 * The configuration a snapshot is primed with. At snapshot time the cluster may hold no NodePool yet (the version is
 * published before the attach step applies the deploy bundle), and what the cluster holds then says nothing about
 * the runs after a restore, so priming never reads it: one general-purpose NodePool and an AL2023 EC2NodeClass,
 * read through the same reader the runs use ({@link ClusterConfigReader}), which puts that reader's code in the
 * snapshot too.
 */
final class PrimingConfig {
    static final String NODE_CLASS = """
            {"apiVersion":"karpenter.k8s.aws/v1","kind":"EC2NodeClass","metadata":{"name":"prime","resourceVersion":"1"},
             "spec":{"amiSelectorTerms":[{"alias":"al2023@latest"}],"role":"prime",
             "subnetSelectorTerms":[{"tags":{"karpenter.sh/discovery":"prime"}}],
             "securityGroupSelectorTerms":[{"tags":{"karpenter.sh/discovery":"prime"}}]}}
            """;
    static final String NODE_POOL = """
            {"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"prime","resourceVersion":"1"},
             "spec":{"template":{"spec":{"nodeClassRef":{"group":"karpenter.k8s.aws","kind":"EC2NodeClass","name":"prime"},
             "requirements":[{"key":"karpenter.sh/capacity-type","operator":"In","values":["on-demand","spot"]},
                             {"key":"kubernetes.io/arch","operator":"In","values":["amd64"]}]}},
             "limits":{"cpu":"1000"}}}
            """;

    private PrimingConfig() {
    }

    /** @throws IllegalStateException if the built-in objects do not read (a build error, caught by the tests) */
    static GantryConfig read(String region, List<String> zones) {
        List<ConfigObject> objects = List.of(new ConfigObject("EC2NodeClass", "", "prime", "1", NODE_CLASS),
                new ConfigObject("NodePool", "", "prime", "1", NODE_POOL));
        ClusterConfig c = new ClusterConfigReader(() -> objects, region, zones).current(Instant.EPOCH);
        if (!c.invalid().isEmpty() || c.config().nodePools().isEmpty()) {
            throw new IllegalStateException("the priming configuration does not read: " + c.invalid());
        }
        return c.config();
    }
}
