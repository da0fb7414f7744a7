package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.Taint;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The NodeClass TOML Bottlerocket user data accepts, and what reaches the instance. */
class BottlerocketUserDataTest {
    private static String render(String custom, List<Taint> taints) {
        return UserData.render("Bottlerocket", new BootstrapOptions("c1", "https://api.example", "Q0E=", "10.100.0.0/16",
                "10.100.0.10", Map.of("karpenter.sh/nodepool", "p1"), taints, 17, NodeClass.Kubelet.DEFAULT, custom));
    }

    private static Map<String, Object> settings(String toml) {
        @SuppressWarnings("unchecked")
        Map<String, Object> s = (Map<String, Object>) TomlTrees.parse(toml).get("settings");
        return s;
    }

    /**
     * Karpenter's Bottlerocket settings under {@code instanceStorePolicy: RAID0} (aws bootstrap/bottlerocket.go): a
     * bootstrap command that makes the instance store the ephemeral storage and binds the kubelet's, containerd's and
     * the pod logs' directories to it, beside the user's own bootstrap commands.
     */
    @Test
    void raid0AddsTheBootstrapCommandThatMountsTheInstanceStore() {
        String toml = UserData.render("Bottlerocket", new BootstrapOptions("c1", "https://api.example", "Q0E=",
                "10.100.0.0/16", "10.100.0.10", Map.of(), List.of(), 17, NodeClass.Kubelet.DEFAULT, """
                [settings.bootstrap-commands.mine]
                commands = [["echo", "hi"]]
                mode = "once"
                """, NodeClass.RAID0));

        assertThat(settings(toml)).extractingByKey("bootstrap-commands").isEqualTo(Map.of(
                "mine", Map.of("commands", List.of(List.of("echo", "hi")), "mode", "once"),
                "000-mount-instance-storage", Map.of("commands", List.of(List.of("apiclient", "ephemeral-storage", "init"),
                        List.of("apiclient", "ephemeral-storage", "bind", "--dirs", "/var/lib/containerd",
                                "/var/lib/kubelet", "/var/log/pods")), "essential", true, "mode", "always")));
        assertThat(settings(render(null, List.of()))).doesNotContainKey("bootstrap-commands");
    }

    @Test
    void quotedKeysWithDotsStayOneKeyAndEscapesSurviveTheRoundTrip() {
        String toml = render("""
                [settings.kubernetes.node-labels]
                "example.com/team.name" = "a \\"b\\" it's"
                [settings."host-containers".admin]
                "user-data" = "line1\\nline2\\ttab"
                """, List.of());

        assertThat(settings(toml)).extractingByKey("kubernetes").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .extractingByKey("node-labels").isEqualTo(Map.of("example.com/team.name", "a \"b\" it's",
                        "karpenter.sh/nodepool", "p1"));
        assertThat(settings(toml)).extractingByKey("host-containers")
                .isEqualTo(Map.of("admin", Map.of("user-data", "line1\nline2\ttab")));
    }

    @Test
    void inlineTablesArraysOfTablesAndCrlfLineEndsAreValidTomlAndPassThrough() {
        String toml = render("[settings.kernel]\r\nsysctl = { \"vm.max_map_count\" = \"262144\" }\r\n"
                + "[[settings.bootstrap-commands]]\r\nmode = \"always\"\r\n[[settings.bootstrap-commands]]\r\n"
                + "mode = \"once\"\r\nenabled = true\r\nretries = 3\r\n", List.of());

        assertThat(settings(toml)).containsEntry("kernel", Map.of("sysctl", Map.of("vm.max_map_count", "262144")))
                .containsEntry("bootstrap-commands", List.of(Map.of("mode", "always"),
                        Map.of("mode", "once", "enabled", true, "retries", 3)));
    }

    @Test
    void ourTaintsReplaceTheUsersAndGroupValuesPerKey() {
        String toml = render("[settings.kubernetes.node-taints]\nuser = [\"x:NoSchedule\"]\n", List.of(
                new Taint("gpu", "true", Taint.Effect.NoSchedule), new Taint("gpu", "", Taint.Effect.NoExecute)));

        assertThat(settings(toml)).extractingByKey("kubernetes").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("node-taints", Map.of("gpu", List.of("true:NoSchedule", ":NoExecute")))
                .containsEntry("max-pods", 17);
    }

    @Test
    void datesAreRefusedByKeyRatherThanWrittenBackAsStrings() {
        assertThatThrownBy(() -> render("[settings.x]\nwhen = 1979-05-27T07:32:00Z\n", List.of()))
                .isInstanceOfSatisfying(CloudException.class, e -> {
                    assertThat(e.code()).isEqualTo("InvalidUserData");
                    assertThat(e.getMessage()).isEqualTo("InvalidUserData: userData TOML: settings.x.when: dates and times are not supported");
                });
    }

    @Test
    void infAndNanAreRefusedBecauseTheWriterCannotSpellThem() {
        assertThatThrownBy(() -> render("[settings.x]\nratio = inf\n", List.of()))
                .isInstanceOfSatisfying(CloudException.class, e -> assertThat(e.getMessage())
                        .isEqualTo("InvalidUserData: userData TOML: settings.x.ratio: inf and nan are not supported"));
    }

    @Test
    void aTableDefinedTwiceIsRejectedAsTomlRequires() {
        assertThatThrownBy(() -> render("[settings.a]\nx = 1\n[settings.a]\ny = 2\n", List.of()))
                .isInstanceOfSatisfying(CloudException.class, e -> assertThat(e.getMessage())
                        .startsWith("InvalidUserData: userData TOML line 3, column "));
    }

    @Test
    void settingsThatIsNotATableIsRejected() {
        assertThatThrownBy(() -> render("settings = 5\n", List.of()))
                .isInstanceOfSatisfying(CloudException.class, e -> assertThat(e.getMessage())
                        .isEqualTo("InvalidUserData: userData TOML: 'settings' must be a table"));
    }

    @Test
    void commentOnlyUserDataIsAnEmptyDocument() {
        assertThat(settings(render("# nothing yet\n\n", List.of()))).containsOnlyKeys("kubernetes");
    }
}
