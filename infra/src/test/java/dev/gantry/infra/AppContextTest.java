package dev.gantry.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.RemovalPolicy;

class AppContextTest {
    private static final Path BASE = Path.of("/work/infra");

    private static GantryAutoscalerProps read(Map<String, Object> context) {
        return AppContext.read(context::get, BASE, ConfigValidators.none());
    }

    @Test
    void defaultsPointAtTheSamplesAndTheHandlersBuildOutput() {
        GantryAutoscalerProps p = read(Map.of("clusterName", "prod-1"));
        assertThat(p.clusterName()).isEqualTo("prod-1");
        assertThat(p.config()).isEqualTo(BASE.resolve("../samples/nodepools"));
        assertThat(p.assetsDir()).isEqualTo(BASE.resolve("../functions/handlers/target/dist"));
        assertThat(p.settings()).isEqualTo(dev.gantry.config.deployment.DeploymentSettings.DEFAULT);
        assertThat(p.tokenRotation()).isEmpty();
        assertThat(p.tableRemoval()).isEqualTo(RemovalPolicy.RETAIN);
        assertThat(p.network()).isNull();
    }

    @Test
    void rejectsMissingClusterNameWithOneLineSayingWhatToPass() {
        assertThatThrownBy(() -> read(Map.of())).isInstanceOf(SynthInputException.class)
                .hasMessage("clusterName is required: pass -c clusterName=<your EKS cluster name>");
    }

    @Test
    void rejectsClusterNameEksWouldNotAccept() {
        assertThatThrownBy(() -> read(Map.of("clusterName", "-bad name"))).isInstanceOf(SynthInputException.class)
                .hasMessageStartingWith("clusterName '-bad name' is not an EKS cluster name");
    }

    @Test
    void readsScheduleRatesInMinutesHoursAndDays() {
        assertThat(AppContext.rate("5 minutes").toMinutes()).isEqualTo(5);
        assertThat(AppContext.rate("1 hour").toMinutes()).isEqualTo(60);
        assertThat(AppContext.rate("2 days").toHours()).isEqualTo(48);
    }

    @Test
    void scheduleRateAndTokenRotationGoIntoTheProps() {
        GantryAutoscalerProps p = read(Map.of("clusterName", "c", "scheduleRate", "5 minutes", "tokenRotation", "2"));
        assertThat(p.settings().sweepRate()).isEqualTo(java.time.Duration.ofMinutes(5));
        assertThat(p.tokenRotation()).isEqualTo("2");
    }

    @Test
    void settingsThatBreakTheirRulesFailSynthWithOneLineEach() {
        var d = dev.gantry.config.deployment.DeploymentSettings.DEFAULT;
        var bad = d.with(new dev.gantry.config.deployment.FunctionSettings("provisioner", 2048,
                java.time.Duration.ofMinutes(2), 1));
        assertThatThrownBy(() -> read(Map.of("clusterName", "c")).withSettings(bad))
                .isInstanceOf(SynthInputException.class)
                .hasMessageStartingWith("provisioning: visibility PT6M is under 6 x provisioner's timeout PT2M");
    }

    @Test
    void rejectsScheduleRateThatIsNotARate() {
        assertThatThrownBy(() -> read(Map.of("clusterName", "c", "scheduleRate", "every minute")))
                .isInstanceOf(SynthInputException.class).hasMessageContaining("context scheduleRate");
    }

    @Test
    void readsVpcAndCommaSeparatedSubnets() {
        GantryAutoscalerProps p = read(Map.of("clusterName", "c", "vpcId", "vpc-0123456789abcdef0",
                "functionSubnetIds", "subnet-0123456789abcdef0, subnet-00000000000000001"));
        assertThat(p.network().subnetIds()).containsExactly("subnet-0123456789abcdef0", "subnet-00000000000000001");
    }

    @Test
    void rejectsSubnetsWithoutVpcAndMalformedIds() {
        assertThatThrownBy(() -> read(Map.of("clusterName", "c", "functionSubnetIds", "subnet-0123456789abcdef0")))
                .isInstanceOf(SynthInputException.class).hasMessageStartingWith("context vpcId");
        assertThatThrownBy(() -> read(Map.of("clusterName", "c", "vpcId", "vpc-0123456789abcdef0",
                "functionSubnetIds", "sub-1"))).hasMessageContaining("expected subnet-<hex>");
    }

    @Test
    void nodeRolesAreReadAsNamesOrArnsAndABadOrRepeatedOneFailsSynthNamingTheKey() {
        assertThat(read(Map.of("clusterName", "c")).nodeRoles()).isEmpty();
        assertThat(read(Map.of("clusterName", "c", "nodeRoles", " KarpenterNodeRole-c , arn:aws:iam::111122223333:role/a/b/gpu ")).nodeRoles())
                .containsExactly("KarpenterNodeRole-c", "arn:aws:iam::111122223333:role/a/b/gpu");
        assertThatThrownBy(() -> read(Map.of("clusterName", "c", "nodeRoles", "role/with/slash")))
                .isInstanceOf(SynthInputException.class).hasMessageStartingWith("nodeRoles: 'role/with/slash' is not an IAM role");
        assertThatThrownBy(() -> read(Map.of("clusterName", "c", "nodeRoles", "gpu,arn:aws:iam::111122223333:role/x/gpu")))
                .isInstanceOf(SynthInputException.class).hasMessage("nodeRoles: role 'gpu' is named twice");
    }

    @Test
    void rejectsUnknownTableRemovalPolicy() {
        assertThatThrownBy(() -> read(Map.of("clusterName", "c", "tableRemoval", "snapshot")))
                .isInstanceOf(SynthInputException.class).hasMessageContaining("retain or destroy");
    }

    @Test
    void consolidationContextKeysGoIntoTheSettingsAndAbsentKeysKeepTheDeploymentDefault() {
        assertThat(read(Map.of("clusterName", "c")).settings().consolidation())
                .isEqualTo(dev.gantry.config.deployment.DeploymentSettings.DEFAULT.consolidation());
        assertThat(read(Map.of("clusterName", "c", "spotToSpotConsolidation", true, "consolidationStrategy", "karpenter"))
                .settings().consolidation()).isEqualTo(new dev.gantry.core.disruption.consolidation.ConsolidationSettings(
                true, dev.gantry.core.disruption.consolidation.ConsolidationSettings.Strategy.KARPENTER));
    }

    @Test
    void rejectsConsolidationValuesOutsideTheirWordsNamingTheKey() {
        assertThatThrownBy(() -> read(Map.of("clusterName", "c", "spotToSpotConsolidation", "yes")))
                .isInstanceOf(SynthInputException.class)
                .hasMessage("context spotToSpotConsolidation: expected true or false, got 'yes'");
        assertThatThrownBy(() -> read(Map.of("clusterName", "c", "consolidationStrategy", "greedy")))
                .isInstanceOf(SynthInputException.class)
                .hasMessage("context consolidationStrategy: expected gantry or karpenter, got 'greedy'");
    }
}
