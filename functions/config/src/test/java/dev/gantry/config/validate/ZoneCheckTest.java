package dev.gantry.config.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.source.Diagnostic;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.config.catalog.Regions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Zones a NodePool requires, against the catalogue's regions and zones. */
class ZoneCheckTest {
    private static LoadResult pool(String zones) {
        return ConfigLoader.loadString("p.yaml", """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata:
                  name: general
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements:
                        - key: topology.kubernetes.io/zone
                          operator: In
                          values: [%s]
                """.formatted(zones), LoadOptions.DEFAULT);
    }

    private static List<String> lines(List<Diagnostic> d) {
        return d.stream().map(Diagnostic::toString).toList();
    }

    @Test
    void aZoneTheRegionDoesNotHaveIsAnErrorAtTheRequirementsValues() {
        assertThat(lines(ZoneCheck.check(pool("us-east-1a, us-east-1z"), null))).containsExactly(
                "p.yaml:12:19: NodePool/general/spec.template.spec.requirements[0].values: zone us-east-1z does not exist "
                        + "in us-east-1 (its zones: us-east-1a, us-east-1b, us-east-1c, us-east-1d, us-east-1e, us-east-1f)");
    }

    @Test
    void zonesOfAnotherRegionThanThePlannedOneAreErrors() {
        assertThat(lines(ZoneCheck.check(pool("eu-west-1a"), "us-east-1"))).singleElement().asString()
                .endsWith("zone eu-west-1a is not in region us-east-1");
    }

    @Test
    void aZoneOfNoRegionIsAnError() {
        assertThat(lines(ZoneCheck.check(pool("mars-west-1a"), null))).singleElement().asString()
                .endsWith("'mars-west-1a' is not a zone of any AWS region");
    }

    @Test
    void realZonesLocalZonesAndZonesOfAnUnlistedButPlausibleRegionPass() {
        assertThat(ZoneCheck.check(pool("ap-northeast-2a, ap-northeast-2d"), null)).isEmpty();
        assertThat(ZoneCheck.check(pool("us-east-1-bos-1a"), null)).isEmpty();
        assertThat(ZoneCheck.check(pool("eu-north-9a"), null)).isEmpty();
    }

    @Test
    void regionsAreKnownPlausibleOrRefusedWithASuggestion() {
        assertThat(Regions.problemWithRegion("eu-west-1").ok()).isTrue();
        assertThat(Regions.problemWithRegion("eu-north-9").warning()).isTrue();
        assertThat(Regions.problemWithRegion("mars-west-1").warning()).isFalse();
        assertThat(Regions.problemWithRegion("eu-wset-1").message()).isEqualTo("'eu-wset-1' is not an AWS region; did you mean eu-west-1?");
    }

    @Test
    void defaultZonesAreOnesEveryAccountSeesNeverAnInventedLetter() {
        assertThat(BuiltInCatalog.defaultZones("ap-northeast-1")).containsExactly("ap-northeast-1a", "ap-northeast-1c", "ap-northeast-1d");
        assertThat(BuiltInCatalog.defaultZones("ca-central-1")).containsExactly("ca-central-1a", "ca-central-1b", "ca-central-1d");
        assertThat(BuiltInCatalog.defaultZones("us-east-1")).containsExactly("us-east-1a", "us-east-1b", "us-east-1c");
        for (String id : Regions.ids()) {
            assertThat(Regions.of(id).orElseThrow().zones()).containsAll(BuiltInCatalog.defaultZones(id));
        }
    }
}
