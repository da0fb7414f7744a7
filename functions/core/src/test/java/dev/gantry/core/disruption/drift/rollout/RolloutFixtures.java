package dev.gantry.core.disruption.drift.rollout;

import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.disruption.drift.DriftCheck;
import dev.gantry.core.disruption.drift.hash.DriftHashes;
import dev.gantry.core.disruption.drift.hash.DriftHashesTest;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Claims and nodes of one class ({@code default}, pool {@code general}) on an old or a new AMI. */
final class RolloutFixtures {
    static final Instant NOW = LifecycleFixtures.T0;
    static final String OLD = "ami-old";
    static final String NEW = "ami-new";
    static final Map<String, String> TARGET = Map.of("amd64", NEW, "arm64", NEW);

    private RolloutFixtures() {
    }

    static NodeClass nodeClass(Map<String, String> annotations) {
        NodeClass c = DriftHashesTest.CLASS;
        return new NodeClass(c.name(), c.group(), c.kind(), c.amiFamily(), c.amiSelectorTerms(), c.subnetSelectorTerms(),
                c.securityGroupSelectorTerms(), c.role(), c.instanceProfile(), c.userData(), c.tags(), c.blockDeviceMappings(),
                c.metadataOptions(), c.kubelet(), c.associatePublicIPAddress(), c.detailedMonitoring(), c.convertedFrom(),
                annotations);
    }

    static LaunchParameters on(String image) {
        return new LaunchParameters("on-demand", List.of(new LaunchParameters.Template("lt", image, 0, List.of())), Map.of());
    }

    /** An old node, initialized two hours ago, AMI-drifted. */
    static NodeClaim old(String name) {
        Instant at = NOW.minus(Duration.ofHours(2));
        return NodeClaim.launching(name, "general", "h", List.of(), List.of("m5.large"), List.of(), "m5.large", "us-east-1a",
                "on-demand", 0.1, at).withLaunchParameters(on(OLD)).launched("i-" + name, "m5.large", "us-east-1a", "on-demand", 0.1, at)
                .registered("node-" + name, at).initialized(at)
                .withDrift(DriftHashes.stamp(DriftHashesTest.POOL, DriftHashesTest.CLASS).drift(DriftCheck.AMI, NOW.minusSeconds(600)));
    }

    /** A node launched on the new image {@code ago} ago, initialized {@code initializedAgo} ago (null: not yet). */
    static NodeClaim canary(String name, Duration ago, Duration initializedAgo) {
        Instant at = NOW.minus(ago);
        NodeClaim c = NodeClaim.launching(name, "general", "h", List.of(), List.of("m5.large"), List.of(), "m5.large", "us-east-1a",
                "on-demand", 0.1, at).withLaunchParameters(on(NEW)).launched("i-" + name, "m5.large", "us-east-1a", "on-demand", 0.1, at)
                .registered("node-" + name, at);
        return initializedAgo == null ? c : c.initialized(NOW.minus(initializedAgo));
    }

    static Node node(String claim, boolean ready) {
        return new Node("node-" + claim, "aws:///us-east-1a/i-" + claim, Map.of("kubernetes.io/arch", "amd64"), Map.of(), List.of(),
                Resources.of(2000, 8L << 30), ready, false, false, NOW.minusSeconds(7200), List.of(), null);
    }
}
