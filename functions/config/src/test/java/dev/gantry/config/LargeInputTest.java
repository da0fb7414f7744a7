package dev.gantry.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Inputs of real size: no code-point limit below Java's own, aliases up to a limit that says why it exists. */
class LargeInputTest {
    @Test
    void aDocumentOverThreeMebibytesIsRead() {
        // kubectl's last-applied-configuration annotations alone can make a manifest this large.
        String yaml = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations: {blob: \"" + "x".repeat(4 << 20) + "\"}\n"
                + "spec:\n  containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n";
        LoadResult r = ConfigLoader.loadString("big.yaml", yaml, LoadOptions.DEFAULT);
        assertThat(r.errors()).isEmpty();
        assertThat(r.pods()).hasSize(1);
    }

    @Test
    void moreThanFiftyAliasesAreValidYamlAndRead() {
        StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: List\nitems:\n");
        for (int i = 0; i < 200; i++) {
            yaml.append("  - apiVersion: v1\n    kind: Pod\n    metadata:\n      name: p").append(i).append('\n')
                    .append(i == 0 ? "      labels: &common {app: web, team: payments}\n" : "      labels: *common\n")
                    .append("    spec: {containers: [{name: c}]}\n");
        }
        LoadResult r = ConfigLoader.loadString("aliases.yaml", yaml.toString(), LoadOptions.DEFAULT);
        assertThat(r.errors()).isEmpty();
        assertThat(r.pods()).hasSize(200).allSatisfy(p -> assertThat(p.labels()).containsEntry("team", "payments"));
    }

    @Test
    void beyondTheAliasLimitTheMessageSaysWhyNotThatItIsNotYaml() {
        String yaml = "apiVersion: v1\nkind: List\nitems:\n  - &p {apiVersion: v1, kind: Pod, metadata: {name: p}}\n"
                + "  - *p\n".repeat(ConfigLoader.MAX_ALIASES + 1);
        LoadResult r = ConfigLoader.loadString("bomb.yaml", yaml, LoadOptions.DEFAULT);
        assertThat(r.errors()).singleElement().satisfies(d -> assertThat(d.message())
                .startsWith("valid YAML, but it uses more than 1,000 aliases").doesNotContain("not YAML"));
    }
}
