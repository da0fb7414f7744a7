package dev.gantry.kube.objects.dump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.kube.objects.KubeJson;
import dev.gantry.testing.dumps.ClusterDumpGenerator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * The kubectl-YAML fast path reads exactly what snakeyaml-engine reads, or refuses: compared on every item of a
 * generated dump and on the scalar forms kubectl's encoder (go-yaml) writes.
 */
class KubectlYamlParserTest {
    private static JsonNode general(String yaml) {
        return KubeJson.YAML.readTree(yaml);
    }

    @Test
    void everyItemOfAGeneratedDumpReadsAsTheGeneralParserReadsIt() {
        String dump = ClusterDumpGenerator.generate(12, 5).yaml();
        List<String> items = new ArrayList<>();
        StringBuilder cur = null;
        for (String line : dump.split("\n")) {
            if (line.startsWith("- ")) {
                if (cur != null) {
                    items.add(cur.toString());
                }
                cur = new StringBuilder(line.substring(2)).append('\n');
            } else if (cur != null && (line.startsWith("  ") || line.isEmpty())) {
                cur.append(line.length() < 2 ? "" : line.substring(2)).append('\n');
            } else if (cur != null) {
                items.add(cur.toString());
                cur = null;
            }
        }
        assertThat(items).hasSizeGreaterThan(200);
        for (String item : items) {
            assertThat(KubectlYamlParser.parse(item)).as(item).isEqualTo(general(item));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "a: 1\nb: -2\nc: 3.5\nd: true\ne: null\nf: ~\ng: \"58\"\nh: 2026-06-01T12:00:00Z\ni: 10.0.1.2\nj: 0.25\nk: 1e3\nm: 0\nn: 99999999999\n",
            "message: '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes\n  are available: 3 No preemption victims.'\nnext: x\n",
            "note: this is a long plain scalar that go-yaml folds at eighty columns when it\n  has to, and it goes on\n\n  after a blank line\nnext: x\n",
            "q: \"a \\\"quoted\\\" value with \\\\ and \\u00e9 and \\t tab, folded\n  here and joined\\\n  \\ there\"\nr: 'it''s'\n",
            "config: |\n  line one\n    indented\n\n  line three\nstrip: |-\n  no newline\nkeep: |+\n  kept\n\nafter: 1\n",
            "items:\n- a\n- b: 1\n  c: 2\n- - x\n  - y\n-\n  d: 3\n- {}\n- []\nempty:\nnested:\n  deep:\n  - k: v\n",
            "# a comment\nkey: value # trailing\nurl: http://x:8080/path\nf:metadata: {}\n\"quoted key\": 1\n",
            "empty: \"\"\nspace: ' '\ncolon: 'a: b'\nhash: 'a #b'\ndash: '- x'\nstar: '*x'\n"})
    void scalarAndStructureFormsReadAsTheGeneralParserReadsThem(String yaml) {
        assertThat(KubectlYamlParser.parse(yaml)).isEqualTo(general(yaml));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a: &x 1\nb: *x\n", "a: !!str 1\n", "a: {b: 1}\n", "a: [1, 2]\n", "a: >\n  folded\n", "? complex\n: key\n",
            "- a\n", "a: |2\n   x\n", "a: +7\n", "a: 0x1F\n", "a: .5\n", "a: 1_000\n"})
    void whatKubectlDoesNotWriteIsLeftToTheGeneralParser(String yaml) {
        assertThatThrownBy(() -> KubectlYamlParser.parse(yaml)).isInstanceOf(KubectlYamlParser.NotKubectl.class);
    }
}
