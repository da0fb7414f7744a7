package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.Taint;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the NodeClass's own user data is merged with Gantry's, per AMI family. */
class UserDataMergeTest {
    private static BootstrapOptions options(String custom, List<Taint> taints) {
        return new BootstrapOptions("c1", "https://api.example", "Q0E=", "10.100.0.0/16", "10.100.0.10",
                Map.of("karpenter.sh/nodepool", "p1", "team", "web"), taints, 17, NodeClass.Kubelet.DEFAULT, custom);
    }

    @Test
    void bottlerocketKeepsUserSettingsMergesLabelsAndOverridesClusterAndTaints() {
        String custom = """
                # user settings
                [settings.kubernetes]
                cluster-name = "wrong"
                'allowed-unsafe-sysctls' = ["net.core.somaxconn", "kernel.msg*"]

                [settings.kubernetes.node-labels]
                team = "overridden-by-pool"
                extra = "kept"

                [settings.kubernetes.node-taints]
                dedicated = ["user:NoSchedule"]

                [settings.host-containers.admin]
                enabled = true
                [settings.kernel.sysctl]
                "net.ipv4.ip_forward" = "1"
                """;
        String toml = UserData.render("Bottlerocket", options(custom, List.of(
                new Taint("dedicated", "gpu", Taint.Effect.NoSchedule), new Taint("dedicated", "ml", Taint.Effect.NoExecute))));

        // Compared as TOML trees: Jackson writes dotted keys where this expectation (like Karpenter) has headers.
        assertThat(TomlTrees.parse(toml)).isEqualTo(TomlTrees.parse("""
                [settings.kubernetes]
                cluster-name = "c1"
                allowed-unsafe-sysctls = ["net.core.somaxconn", "kernel.msg*"]
                api-server = "https://api.example"
                cluster-certificate = "Q0E="
                cluster-dns-ip = "10.100.0.10"
                max-pods = 17

                [settings.kubernetes.node-labels]
                team = "web"
                extra = "kept"
                "karpenter.sh/nodepool" = "p1"

                [settings.kubernetes.node-taints]
                dedicated = ["gpu:NoSchedule", "ml:NoExecute"]

                [settings.host-containers.admin]
                enabled = true

                [settings.kernel.sysctl]
                "net.ipv4.ip_forward" = "1"
                """));
    }

    @Test
    void bottlerocketUserDataThatIsNotTomlIsRejectedWithItsLineNotMisread() {
        assertThatThrownBy(() -> UserData.render("Bottlerocket", options("[settings]\nx = {a = 1\n", List.of())))
                .isInstanceOfSatisfying(CloudException.class, e -> {
                    assertThat(e.code()).isEqualTo("InvalidUserData");
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).startsWith("InvalidUserData: userData TOML line 2, column ")
                            .doesNotContain("jackson").doesNotContain("[Source");
                });
    }

    @Test
    void al2023MimeUserDataKeepsEveryPartBeforeGantrysNodeConfig() {
        String custom = """
                MIME-Version: 1.0
                Content-Type: multipart/mixed; boundary="BOUNDARY"

                --BOUNDARY
                Content-Type: application/node.eks.aws

                apiVersion: node.eks.aws/v1alpha1
                kind: NodeConfig
                spec:
                  instance:
                    localStorage:
                      strategy: RAID0
                --BOUNDARY
                Content-Type: text/x-shellscript; charset="us-ascii"

                #!/bin/bash
                echo hi
                --BOUNDARY--
                """;
        MimeArchive out = MimeArchive.parse(UserData.render("AL2023", options(custom, List.of())));

        assertThat(out.parts()).extracting(MimeArchive.Part::contentType).containsExactly(
                "application/node.eks.aws", "text/x-shellscript; charset=\"us-ascii\"", "application/node.eks.aws");
        assertThat(out.parts().get(0).content()).endsWith("      strategy: RAID0");
        assertThat(out.parts().get(1).content()).isEqualTo("#!/bin/bash\necho hi");
        assertThat(out.parts().get(2).content()).contains("name: c1").contains("maxPods: 17")
                .contains("registerWithTaints: []").contains("--node-labels=\"karpenter.sh/nodepool=p1,team=web\"");
    }

    @Test
    void al2023NodeConfigYamlUserDataBecomesANodeConfigPart() {
        List<MimeArchive.Part> parts = NodeadmUserData.custom("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec: {}\n");

        assertThat(parts).singleElement().extracting(MimeArchive.Part::contentType).isEqualTo(MimeArchive.NODE_CONFIG);
    }

    /**
     * Karpenter's nodeadm config under {@code instanceStorePolicy: RAID0} (aws bootstrap/nodeadm.go):
     * {@code spec.instance.localStorage.strategy: RAID0}; none without the policy.
     */
    @Test
    void al2023NodeConfigStripesTheInstanceStoreUnderRaid0() {
        BootstrapOptions o = options(null, List.of());
        BootstrapOptions raid0 = new BootstrapOptions(o.clusterName(), o.endpoint(), o.certificateAuthority(),
                o.serviceCidr(), o.clusterDnsIp(), o.labels(), o.taints(), o.maxPods(), o.kubelet(), null, NodeClass.RAID0);
        assertThat(NodeadmUserData.nodeConfig(raid0)).contains("""
                  instance:
                    localStorage:
                      strategy: RAID0
                """);
        assertThat(NodeadmUserData.nodeConfig(o)).doesNotContain("localStorage");
    }

    @Test
    void familiesWithoutARendererAreRefused() {
        assertThatThrownBy(() -> UserData.render("Windows2022", options(null, List.of())))
                .isInstanceOfSatisfying(CloudException.class, e -> assertThat(e.code()).isEqualTo("UnsupportedAmiFamily"));
    }

    @Test
    void nodeConfigQuotesStringsThatNodeadmsYaml11WouldReadAsBooleansOrNumbers() {
        List<String> values = List.of("true", "yes", "on", "N", "1.5", "0x1F", "1_000", "0b101", "10:30", "it's",
                "172.20.0.10", "5%", "line\nbreak");
        List<Taint> taints = values.stream().map(v -> new Taint("k", v, Taint.Effect.NoSchedule)).toList();

        String yaml = NodeadmUserData.nodeConfig(options(null, taints));

        assertThat(yaml).contains(values.stream().map(v -> "        value: " + switch (v) {
            case "172.20.0.10", "5%" -> v;
            case "it's" -> "it's";
            case "line\nbreak" -> "|-\n          line\n          break"; // a quoted scalar would fold it to a space
            default -> "'" + v + "'";
        } + "\n").collect(java.util.stream.Collectors.joining("      - effect: NoSchedule\n        key: k\n",
                "      - effect: NoSchedule\n        key: k\n", "")));
        assertThat(yaml).contains("      maxPods: 17\n").contains("    - --node-labels=\"karpenter.sh/nodepool=p1,team=web\"\n");
    }
}
