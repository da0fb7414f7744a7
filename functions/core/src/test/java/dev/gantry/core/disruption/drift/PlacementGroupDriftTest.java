package dev.gantry.core.disruption.drift;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.NodeClassResolution;
import dev.gantry.core.disruption.drift.hash.DriftHashes;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * aws {@code pkg/cloudprovider/drift.go} isPlacementGroupDrifted: the placement group a node is labelled with
 * ({@code karpenter.k8s.aws/placement-group-id}, none when unlabelled) must be the one its EC2NodeClass's
 * {@code placementGroupSelector} resolves to now (none without a selector, or when the group is gone).
 */
class PlacementGroupDriftTest {
    private static final NodePool POOL = DriftCheckTest.POOL;

    private static String reason(String nodeGroup, String selected) {
        Map<String, String> labels = new HashMap<>(DriftCheckTest.LABELS);
        if (nodeGroup != null) {
            labels.put(WellKnownLabels.PLACEMENT_GROUP_ID, nodeGroup);
        }
        CloudInstance i = new CloudInstance("i-a", "m5.large", "us-east-1a", "on-demand", "running", DriftCheckTest.NOW,
                "ip", Map.of(), "ami-new", "subnet-1", List.of("sg-1"));
        NodeClassResolution.Selected s = DriftCheckTest.SELECTED;
        var c = DriftCheckTest.claim().withDrift(DriftHashes.stamp(POOL, DriftCheckTest.CLASS));
        return DriftCheck.reason(c, DriftCheck.restamp(c.drift(), POOL, DriftCheckTest.CLASS), labels, i,
                new DriftCheck.Current(POOL, DriftCheckTest.CLASS, null, Optional.of(new NodeClassResolution.Selected(
                        s.images(), s.subnets(), s.securityGroups(), null, selected))), DriftCheckTest.NOW);
    }

    @Test
    @DisplayName("aws drift.go: a node outside the group its class selects now drifts")
    void aNodeOutsideTheSelectedGroupDrifts() {
        assertThat(reason(null, "pg-0a")).as("selector added").isEqualTo(DriftCheck.PLACEMENT_GROUP);
        assertThat(reason("pg-0a", "pg-0b")).as("selector changed").isEqualTo(DriftCheck.PLACEMENT_GROUP);
        assertThat(reason("pg-0a", "")).as("selector removed, or the group gone").isEqualTo(DriftCheck.PLACEMENT_GROUP);
    }

    @Test
    @DisplayName("aws drift.go: a node in the selected group, or none with none, is no drift")
    void aNodeInTheSelectedGroupIsNoDrift() {
        assertThat(reason("pg-0a", "pg-0a")).isNull();
        assertThat(reason(null, "")).isNull();
    }

    @Test
    @DisplayName("Gantry's own: a group not resolved this time decides nothing")
    void anUnresolvedGroupDecidesNothing() {
        assertThat(reason("pg-0a", null)).isNull();
        assertThat(reason(null, null)).isNull();
    }
}
