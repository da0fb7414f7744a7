package dev.gantry.config.catalog;

import static dev.gantry.core.requirements.Operator.In;
import static dev.gantry.core.requirements.Operator.Lt;
import static dev.gantry.core.requirements.WellKnownLabels.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worked examples of the seed write-ups, checked against the built-in catalogue: the instance types a NodePool
 * intersected with a workload's node affinity allows.
 */
class SeedWorkedExampleTest {

    private static NodePool pool(String name, Requirement... requirements) {
        NodePool.Template template = new NodePool.Template(null, null, null, null, List.of(requirements),
                new NodePool.NodeClassRef(null, null, "default"), null, null);
        return new NodePool(name, null, template, null, null, null, null);
    }

    private static List<String> allowed(Catalog catalog, Requirements requirements) {
        return catalog.instanceTypes(CatalogFixtures.al2023()).stream()
                .filter(t -> t.requirements().compatible(requirements))
                .map(InstanceType::name).toList();
    }

    @Test
    void seed002DeploymentAffinityWithItsNodePoolAllowsExactlySixT4gSizes() {
        NodePool nodePool = pool("default",
                Requirement.of(INSTANCE_CATEGORY, In, "t", "m"),
                Requirement.of(INSTANCE_CPU, Lt, "8"),
                Requirement.of(INSTANCE_GENERATION, In, "4", "6"),
                Requirement.of(ZONE, In, "ap-northeast-2a", "ap-northeast-2b"),
                Requirement.of(ARCH, In, "arm64", "amd64"),
                Requirement.of(CAPACITY_TYPE, In, "on-demand", "spot"));
        Requirements deploymentAffinity = Requirements.of(
                Requirement.of(ARCH, In, "arm64"),
                Requirement.of(INSTANCE_CATEGORY, In, "t"),
                Requirement.of(INSTANCE_CPU, In, "2", "4"),
                Requirement.of(INSTANCE_GENERATION, In, "4"),
                Requirement.of(ZONE, In, "ap-northeast-2a", "ap-northeast-2b"),
                Requirement.of(CAPACITY_TYPE, In, "spot"));
        Catalog seoul = BuiltInCatalog.load("ap-northeast-2",
                List.of("ap-northeast-2a", "ap-northeast-2b", "ap-northeast-2c"));

        Requirements both = nodePool.requirements().intersect(deploymentAffinity);

        assertThat(allowed(seoul, both)).containsExactlyInAnyOrder(
                "t4g.nano", "t4g.micro", "t4g.small", "t4g.medium", "t4g.large", "t4g.xlarge");
        assertThat(seoul.warnings()).singleElement().asString().contains("us-east-1");
    }

    @Test
    void seed002NodePoolAloneAlsoAllowsOtherCategoriesAndArchitectures() {
        NodePool nodePool = pool("default",
                Requirement.of(INSTANCE_CATEGORY, In, "t", "m"),
                Requirement.of(INSTANCE_CPU, Lt, "8"),
                Requirement.of(INSTANCE_GENERATION, In, "4", "6"),
                Requirement.of(ZONE, In, "ap-northeast-2a", "ap-northeast-2b"));
        List<String> names = allowed(BuiltInCatalog.load("ap-northeast-2"), nodePool.requirements());
        assertThat(names).contains("t4g.xlarge", "m4.large", "m6i.large", "m6g.xlarge")
                .doesNotContain("t4g.2xlarge", "m6i.2xlarge", "t3.micro", "m5.large");
    }

    @Test
    void seed000ProvisionerAllowsExactlyItsSevenT3aSizesOnDemand() {
        String[] t3a = {"t3a.nano", "t3a.micro", "t3a.small", "t3a.medium", "t3a.large", "t3a.xlarge", "t3a.2xlarge"};
        NodePool converted = pool("default",
                Requirement.of(CAPACITY_TYPE, In, "on-demand"),
                Requirement.of(INSTANCE_TYPE, In, t3a));
        List<String> names = allowed(BuiltInCatalog.load("us-east-1"), converted.requirements());
        assertThat(names).containsExactlyInAnyOrder(t3a);
    }
}
