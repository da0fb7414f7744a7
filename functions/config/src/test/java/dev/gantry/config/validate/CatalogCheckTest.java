package dev.gantry.config.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.source.Diagnostic;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** NodePools against a small hand-built catalogue: what they allow, and which requirement leaves nothing. */
class CatalogCheckTest {
    private static final List<String> ZONES = List.of("ap-northeast-2a", "ap-northeast-2b", "ap-northeast-2c");

    private static InstanceType type(String name, String arch, int cpu, int generation) {
        String family = name.substring(0, name.indexOf('.'));
        Map<String, String> labels = Map.of("kubernetes.io/arch", arch, "kubernetes.io/os", "linux",
                "karpenter.k8s.aws/instance-category", family.substring(0, 1),
                "karpenter.k8s.aws/instance-family", family,
                "karpenter.k8s.aws/instance-generation", Integer.toString(generation),
                "karpenter.k8s.aws/instance-cpu", Integer.toString(cpu));
        List<Offering> offerings = new ArrayList<>();
        for (String z : ZONES) {
            offerings.add(Offering.of(z, "on-demand", 0.01 * cpu));
            offerings.add(Offering.of(z, "spot", 0.004 * cpu));
        }
        return new InstanceType(name, labels, Resources.of(cpu * 1000L, cpu * 4L << 30), Resources.ZERO, offerings);
    }

    /** t4g sizes by vCPU as EC2 has them, plus near misses in arch, generation, category and size. */
    private static final List<InstanceType> TYPES = List.of(
            type("t4g.nano", "arm64", 2, 4), type("t4g.micro", "arm64", 2, 4), type("t4g.small", "arm64", 2, 4),
            type("t4g.medium", "arm64", 2, 4), type("t4g.large", "arm64", 2, 4), type("t4g.xlarge", "arm64", 4, 4),
            type("t4g.2xlarge", "arm64", 8, 4), type("t3a.large", "amd64", 2, 3), type("m6g.large", "arm64", 2, 6),
            type("m6g.xlarge", "arm64", 4, 6), type("m6i.large", "amd64", 2, 6), type("c6g.large", "arm64", 2, 6));
    private static final InstanceTypeProvider PROVIDER = nodeClass -> TYPES;

    @Test
    void seed002DeploymentWithItsPoolAllowsExactlyTheSixT4gSizes() {
        LoadResult r = ConfigLoader.load(List.of(Path.of("../../samples/nodepools/seed002-v1beta1.yaml"),
                Path.of("../../samples/workloads/seed002-nginx.yaml")), LoadOptions.DEFAULT);
        NodePool pool = r.nodePools().getFirst();
        Pod pod = r.pods().getFirst();
        Requirements both = pool.requirements().intersect(pod.nodeRequirementTerms().getFirst());
        List<String> allowed = TYPES.stream().filter(t -> both.compatible(t.requirements())).map(InstanceType::name).toList();
        assertThat(allowed).containsExactly("t4g.nano", "t4g.micro", "t4g.small", "t4g.medium", "t4g.large", "t4g.xlarge");
    }

    @Test
    void poolAllowsTypesCompatibleWithItsRequirements() {
        LoadResult r = ConfigLoader.load(List.of(Path.of("../../samples/nodepools/seed002-v1beta1.yaml")), LoadOptions.DEFAULT);
        CatalogCheck.PoolCheck c = new CatalogCheck(PROVIDER).check(r).getFirst();
        assertThat(c.error()).isNull();
        assertThat(c.allowed()).extracting(InstanceType::name).containsExactly("t4g.nano", "t4g.micro", "t4g.small",
                "t4g.medium", "t4g.large", "t4g.xlarge", "m6g.large", "m6g.xlarge", "m6i.large");
    }

    @Test
    void namesTheRequirementThatEmptiedTheSet() {
        LoadResult r = ConfigLoader.loadString("n.yaml", """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: gpu}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: c}
                      requirements:
                        - {key: kubernetes.io/arch, operator: In, values: [arm64]}
                        - {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m]}
                        - {key: karpenter.k8s.aws/instance-cpu, operator: Gt, values: ["16"]}
                        - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
                """, LoadOptions.DEFAULT);
        List<CatalogCheck.PoolCheck> checks = new CatalogCheck(PROVIDER).check(r);
        assertThat(checks.getFirst().allowed()).isEmpty();
        assertThat(checks).extracting(CatalogCheck.PoolCheck::error).extracting(Diagnostic::toString).containsExactly(
                "n.yaml:11:11: NodePool/gpu/spec.template.spec.requirements[2]: no instance type in the catalogue satisfies "
                        + "the requirements; requirement karpenter.k8s.aws/instance-cpu Gt [16] left none of 12");
    }

    @Test
    void emptyCatalogueIsReportedAsSuch() {
        LoadResult r = ConfigLoader.load(List.of(Path.of("../../samples/nodepools/seed000-v1.yaml")), LoadOptions.DEFAULT);
        CatalogCheck.PoolCheck c = new CatalogCheck(nodeClass -> List.of()).check(r).getFirst();
        assertThat(c.error().message()).isEqualTo("the catalogue has no instance types for this NodeClass");
    }
}
