package dev.gantry.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bad input stops synth with one line per problem, before any template is written. */
class SynthFailureTest {

    @Test
    void missingJarNamesTheFileAndTheBuildCommand() throws Exception {
        Path dir = SynthFixture.tempDir();
        Files.delete(dir.resolve("dist/sweep.jar"));
        assertThatThrownBy(() -> SynthFixture.build(SynthFixture.withDefaults(Map.of(), dir), dir))
                .isInstanceOf(SynthInputException.class)
                .hasMessage("missing " + dir.resolve("dist/sweep.jar")
                        + ": build the handlers first with 'mvn -B -DskipTests package' (or set -c assetsDir=<dir>)");
    }

    @Test
    void missingConfigDirectorySaysWhatToPass() {
        Path dir = SynthFixture.tempDir();
        assertThatThrownBy(() -> SynthFixture.build(SynthFixture.withDefaults(
                Map.of("config", dir.resolve("nope").toString()), dir), dir))
                .isInstanceOf(SynthInputException.class)
                .hasMessage("config " + dir.resolve("nope") + " does not exist: pass -c config=<NodePool/NodeClass"
                        + " YAML file or directory>");
    }

    @Test
    void configDirectoryWithoutYamlIsRejected() throws Exception {
        Path dir = SynthFixture.tempDir();
        Files.createDirectories(dir.resolve("empty"));
        assertThatThrownBy(() -> SynthFixture.build(SynthFixture.withDefaults(
                Map.of("config", dir.resolve("empty").toString()), dir), dir))
                .hasMessageEndingWith("holds no .yaml or .yml files");
    }

    @Test
    void missingClusterNameFailsBeforeAnythingIsBuilt() {
        Path dir = SynthFixture.tempDir();
        assertThatThrownBy(() -> SynthFixture.build(Map.of(), dir)).isInstanceOf(SynthInputException.class)
                .hasMessage("clusterName is required: pass -c clusterName=<your EKS cluster name>");
    }

    @Test
    void functionsRunInTheGivenSubnetsWhenAVpcIsGiven() {
        SynthFixture f = SynthFixture.with(Map.of("vpcId", "vpc-0123456789abcdef0",
                "functionSubnetIds", "subnet-0123456789abcdef0,subnet-0123456789abcdef1"));
        var fns = new TemplateQueries(f.template).properties("AWS::Lambda::Function").values().stream()
                .filter(p -> String.valueOf(p.get("Handler")).startsWith("dev.gantry.")).toList();
        assertThat(fns).hasSize(6).allSatisfy(p -> assertThat(TemplateQueries.json(p.get("VpcConfig")))
                .contains("subnet-0123456789abcdef0", "subnet-0123456789abcdef1", "SecurityGroupIds"));
    }

    @Test
    void theFunctionsSecurityGroupAllowsHttpsOutOnlyAndNothingIn() {
        SynthFixture f = SynthFixture.with(Map.of("vpcId", "vpc-0123456789abcdef0",
                "functionSubnetIds", "subnet-0123456789abcdef0"));
        var groups = new TemplateQueries(f.template).properties("AWS::EC2::SecurityGroup").values();
        org.assertj.core.api.Assertions.assertThat(groups).singleElement().satisfies(g -> {
            org.assertj.core.api.Assertions.assertThat(g.get("SecurityGroupEgress")).isEqualTo(java.util.List.of(
                    Map.of("CidrIp", "0.0.0.0/0", "Description", "HTTPS to the EKS endpoint and AWS APIs",
                            "FromPort", 443, "IpProtocol", "tcp", "ToPort", 443)));
            org.assertj.core.api.Assertions.assertThat(g).doesNotContainKey("SecurityGroupIngress");
        });
    }
}
