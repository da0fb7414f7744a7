package dev.gantry.kube.objects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.testing.dumps.ClusterDumpGenerator;
import java.util.ArrayList;
import java.util.List;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.resolver.JsonScalarResolver;
import org.junit.jupiter.api.Test;

/** The quicker resolver types every plain scalar as the library's JSON schema does. */
class YamlScalarsTest {
    private final JsonScalarResolver library = new JsonScalarResolver();
    private final YamlScalars.Resolver quick = new YamlScalars.Resolver();

    @Test
    void everyScalarOfAGeneratedDumpAndEveryEdgeCaseResolvesAsTheLibrarySays() {
        List<String> values = new ArrayList<>(List.of("", "true", "false", "True", "null", "Null", "~", "0", "-0", "-1", "01", "1.5",
                ".5", "-.5", "1e3", "1E+3", ".inf", "-.inf", ".nan", ".NaN", "+1", "0x1F", "0o7", "${HOME}", "${A:-b}", "$x",
                "yes", "no", "on", "off", "500m", "1Gi", "2026-06-01T09:24:17Z", "tr", "nul", "- x", "\\0", "\u0000"));
        for (char c = 0; c < 0x3000; c++) {
            values.add(String.valueOf(c));
            values.add(c + "1");
        }
        new Parse(LoadSettings.builder().setCodePointLimit(Integer.MAX_VALUE).build())
                .parseString(ClusterDumpGenerator.generate(5, 1).yaml())
                .forEach(e -> {
                    if (e instanceof ScalarEvent s) {
                        values.add(s.getValue());
                    }
                });
        assertThat(values).hasSizeGreaterThan(10_000);
        for (String v : values) {
            for (boolean implicit : new boolean[] {true, false}) {
                assertThat(quick.resolve(v, implicit)).as("%s (implicit %s)", v, implicit).isEqualTo(library.resolve(v, implicit));
            }
        }
    }

    @Test
    void theMapperUsesIt() {
        assertThat(KubeJson.YAML.readTree("a: 1\\nb: true\\nc: null\\nd: web\\ne: \"1\"\\n".translateEscapes()).toString())
                .isEqualTo("{\"a\":1,\"b\":true,\"c\":null,\"d\":\"web\",\"e\":\"1\"}");
    }
}
