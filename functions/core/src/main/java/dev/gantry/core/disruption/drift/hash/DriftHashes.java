package dev.gantry.core.disruption.drift.hash;

import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Taint;
import java.util.List;

/**
 * The static drift hashes, as Karpenter v1.14 draws the line (core {@code pkg/apis/v1/nodepool.go} {@code Hash()},
 * aws {@code pkg/apis/v1/ec2nodeclass.go} {@code Hash()}), over Gantry's own {@link Canonical} form.
 * <ul>
 *   <li><b>NodePool</b>: {@code spec.template} without {@code requirements} (requirements drift is decided by
 *       whether the node's labels still fit, so widening never drifts) and without {@code resources}: the template's
 *       labels, annotations, taints, startup taints, nodeClassRef, {@code expireAfter} and
 *       {@code terminationGracePeriod}. Never weight, limits nor disruption (behavioural fields).</li>
 *   <li><b>EC2NodeClass</b>: its static fields: role, instance profile, userData, tags, block device mappings,
 *       metadata options, kubelet, associatePublicIPAddress, detailedMonitoring, instanceStorePolicy, context,
 *       connectionTracking, cpuOptions, placementGroupSelector, and the AMI
 *       family in effect (the resolved one, so writing {@code amiFamily: AL2023} beside {@code al2023@latest} does not
 *       drift). Never the subnet, security group, AMI or capacity reservation selector terms: what they select is
 *       dynamic drift. Nor {@code ipPrefixCount}, which Karpenter leaves out too.</li>
 * </ul>
 * Each hash has a version: bump it whenever a hashed field is added or removed, a hashed field's default changes, or
 * {@link Canonical}'s form changes. A claim stamped under another version is stamped again, not drifted
 * (see {@code DriftCheck.restamp}).
 */
public final class DriftHashes {
    /** Version of {@link #nodePool}. Not Karpenter's ({@code v3}): its hashes are other numbers. */
    public static final String NODEPOOL_VERSION = "gantry-1";
    /**
     * Version of {@link #nodeClass}. Not Karpenter's ({@code v6}). {@code gantry-2} added {@code instanceStorePolicy},
     * {@code gantry-3} {@code context}, {@code connectionTracking}, {@code cpuOptions} and {@code placementGroupSelector}, so claims stamped before are stamped again rather
     * than drifted (a class that wrote them was launched without them).
     */
    public static final String NODECLASS_VERSION = "gantry-3";

    private DriftHashes() {
    }

    /** The NodePool's static hash. */
    public static String nodePool(NodePool pool) {
        NodePool.Template t = pool.template();
        return Canonical.object()
                .with("labels", t.labels())
                .with("annotations", t.annotations())
                .with("taints", taints(t.taints()))
                .with("startupTaints", taints(t.startupTaints()))
                .with("nodeClassRef", Canonical.object().with("group", t.nodeClassRef().group())
                        .with("kind", t.nodeClassRef().kind()).with("name", t.nodeClassRef().name()))
                .with("expireAfter", t.expireAfter().<Object>map(d -> d).orElse("Never"))
                .with("terminationGracePeriod", t.terminationGracePeriod())
                .digest();
    }

    /** The NodeClass's static hash. */
    public static String nodeClass(NodeClass c) {
        return Canonical.object()
                .with("role", c.role())
                .with("instanceProfile", c.instanceProfile())
                .with("userData", c.userData())
                .with("tags", c.tags())
                .with("blockDeviceMappings", c.blockDeviceMappings().stream().map(DriftHashes::device).toList())
                .with("metadataOptions", Canonical.object()
                        .with("httpEndpoint", c.metadataOptions().httpEndpoint())
                        .with("httpProtocolIPv6", c.metadataOptions().httpProtocolIPv6())
                        .with("httpPutResponseHopLimit", c.metadataOptions().httpPutResponseHopLimit())
                        .with("httpTokens", c.metadataOptions().httpTokens()))
                .with("kubelet", kubelet(c.kubelet()))
                .with("associatePublicIPAddress", c.associatePublicIPAddress())
                .with("detailedMonitoring", c.detailedMonitoring())
                .with("amiFamily", c.effectiveAmiFamily())
                .with("instanceStorePolicy", c.instanceStorePolicy())
                .with("context", c.context())
                .with("connectionTracking", connectionTracking(c.networking().connectionTracking()))
                .with("cpuOptions", Canonical.object().with("nestedVirtualization", c.cpuOptions().nestedVirtualization()))
                .with("placementGroupSelector", c.placementGroup() == null ? null
                        : Canonical.object().with("name", c.placementGroup().name()).with("id", c.placementGroup().id()))
                .digest();
    }

    /** A claim launched now from {@code pool} and {@code nodeClass}: their hashes under the current versions. */
    public static DriftStamp stamp(NodePool pool, NodeClass nodeClass) {
        return DriftStamp.launched(nodePool(pool), NODEPOOL_VERSION, nodeClass(nodeClass), NODECLASS_VERSION);
    }

    private static List<Canonical> taints(List<Taint> taints) {
        return taints.stream().map(x -> Canonical.object().with("key", x.key()).with("value", x.value())
                .with("effect", x.effect())).toList();
    }

    private static Canonical device(NodeClass.BlockDeviceMapping m) {
        Canonical ebs = m.ebs() == null ? null : Canonical.object()
                .with("volumeSize", m.ebs().volumeSize())
                .with("volumeType", m.ebs().volumeType())
                .with("iops", m.ebs().iops())
                .with("throughput", m.ebs().throughput())
                .with("encrypted", m.ebs().encrypted())
                .with("kmsKeyId", m.ebs().kmsKeyId())
                .with("deleteOnTermination", m.ebs().deleteOnTermination())
                .with("snapshotId", m.ebs().snapshotId());
        return Canonical.object().with("deviceName", m.deviceName()).with("rootVolume", m.rootVolume()).with("ebs", ebs);
    }

    private static Canonical connectionTracking(NodeClass.ConnectionTracking t) {
        return t == null ? null : Canonical.object().with("tcpEstablishedTimeout", t.tcpEstablishedTimeout())
                .with("udpStreamTimeout", t.udpStreamTimeout()).with("udpTimeout", t.udpTimeout());
    }

    private static Canonical kubelet(NodeClass.Kubelet k) {
        return Canonical.object()
                .with("maxPods", k.maxPods())
                .with("podsPerCore", k.podsPerCore())
                .with("kubeReserved", k.kubeReserved())
                .with("systemReserved", k.systemReserved())
                .with("evictionHard", k.evictionHard())
                .with("evictionSoft", k.evictionSoft())
                .with("evictionSoftGracePeriod", k.evictionSoftGracePeriod())
                .with("clusterDNS", k.clusterDNS())
                .with("imageGCHighThresholdPercent", k.imageGCHighThresholdPercent())
                .with("imageGCLowThresholdPercent", k.imageGCLowThresholdPercent())
                .with("cpuCFSQuota", k.cpuCFSQuota());
    }
}
