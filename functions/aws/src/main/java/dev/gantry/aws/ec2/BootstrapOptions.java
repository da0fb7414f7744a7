package dev.gantry.aws.ec2;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Taint;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Everything a node needs to join the cluster on its own, with no controller in the cluster: what the user data
 * renderers turn into a nodeadm NodeConfig or Bottlerocket settings.
 *
 * @param certificateAuthority base64 of the cluster CA PEM, as EKS returns it (both formats take it so)
 * @param labels               node labels to register with, sorted; only values shared by every instance type of
 *                             the launch (the type-specific ones are added when the node registers)
 * @param taints               taints to register with: the template's taints, then its startupTaints
 * @param maxPods              the kubelet's max pods for the instance types of this launch template
 * @param customUserData       the NodeClass's {@code userData}, merged in; null when none
 * @param instanceStorePolicy  the NodeClass's {@code instanceStorePolicy} ({@code RAID0}: the NVMe instance-store disks
 *                             become one array backing the kubelet's and containerd's storage); null when none
 */
public record BootstrapOptions(String clusterName, String endpoint, String certificateAuthority, String serviceCidr,
                               String clusterDnsIp, Map<String, String> labels, List<Taint> taints, int maxPods,
                               NodeClass.Kubelet kubelet, String customUserData, String instanceStorePolicy) {
    /** Options for a NodeClass without an instance-store policy. */
    public BootstrapOptions(String clusterName, String endpoint, String certificateAuthority, String serviceCidr,
                            String clusterDnsIp, Map<String, String> labels, List<Taint> taints, int maxPods,
                            NodeClass.Kubelet kubelet, String customUserData) {
        this(clusterName, endpoint, certificateAuthority, serviceCidr, clusterDnsIp, labels, taints, maxPods, kubelet,
                customUserData, null);
    }

    /** Whether the instance store is striped into the node's ephemeral storage. */
    public boolean raid0() {
        return NodeClass.RAID0.equals(instanceStorePolicy);
    }

    public BootstrapOptions {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(certificateAuthority, "certificateAuthority");
        labels = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(labels));
        taints = List.copyOf(taints);
        kubelet = kubelet == null ? NodeClass.Kubelet.DEFAULT : kubelet;
        if (maxPods < 1) {
            throw new IllegalArgumentException("maxPods must be positive, got " + maxPods);
        }
    }

    /** The cluster DNS the kubelet uses: the NodeClass's first {@code clusterDNS}, else the service CIDR's .10. */
    public String dnsIp() {
        return kubelet.clusterDNS().isEmpty() ? clusterDnsIp : kubelet.clusterDNS().getFirst();
    }

    /** A quantity as the kubelet reads it: whole numbers plain ({@code 1073741824}), fractions in millis ({@code 100m}). */
    static String kube(Quantity q) {
        BigDecimal v = q.value();
        return v.stripTrailingZeros().scale() <= 0 ? v.toBigInteger().toString() : q.toMillis() + "m";
    }

    static Map<String, String> kube(Map<String, Quantity> quantities) {
        Map<String, String> out = new TreeMap<>();
        quantities.forEach((k, v) -> out.put(k, kube(v)));
        return out;
    }
}
