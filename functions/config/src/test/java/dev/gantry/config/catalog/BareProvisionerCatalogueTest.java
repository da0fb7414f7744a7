package dev.gantry.config.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.validate.CatalogCheck;
import dev.gantry.core.catalog.InstanceType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Provisioner that states no requirements, checked against the real us-east-1 catalogue: Karpenter v0.31 defaulted
 * it to on-demand linux/amd64 c, m and r types of generation 3 or later, not to every type there is.
 */
class BareProvisionerCatalogueTest {
    private static final String BARE = """
            apiVersion: karpenter.sh/v1alpha5
            kind: Provisioner
            metadata: {name: bare}
            spec:
              providerRef: {name: default}
            """;
    private static final String EMPTY_V1 = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: open}
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements: []
            """;

    private static List<InstanceType> allowed(String yaml) {
        LoadResult r = ConfigLoader.loadString("t.yaml", yaml, LoadOptions.DEFAULT);
        assertThat(r.errors()).isEmpty();
        return new CatalogCheck(BuiltInCatalog.load("us-east-1")).check(r).getFirst().allowed();
    }

    @Test
    void aBareProvisionerAllowsOnlyTheTypesKarpenterV031DefaultedItTo() {
        List<InstanceType> bare = allowed(BARE);
        int everything = allowed(EMPTY_V1).size();
        System.out.println("bare v1alpha5 Provisioner: " + bare.size() + " types; v1 NodePool without requirements: " + everything);
        assertThat(bare).allSatisfy(t -> {
            assertThat(t.requirements().get("kubernetes.io/arch").values()).containsExactly("amd64");
            assertThat(t.requirements().get("karpenter.k8s.aws/instance-category").values()).containsAnyOf("c", "m", "r");
        });
        assertThat(bare.size()).isBetween(650, 760);
        assertThat(everything).isGreaterThan(1300);
    }
}
