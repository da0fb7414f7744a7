package dev.gantry.testing.dumps;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Node as the API server returns it for a Karpenter-launched EC2 instance, with defaults for everything a test does
 * not set: managed by NodePool {@code default}, registered, initialized and Ready an hour before {@link #NOW}, on-demand
 * in us-east-1a, with the labels, annotations, finalizer, managedFields, conditions, addresses, images and node info
 * a real node carries. Allocatable is the built-in catalogue's for the common types in {@link #SHAPES}.
 */
public final class DumpNode {
    /** The instant dumps are taken at, in fixtures. */
    public static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    /** Allocatable {cpu millis, memory MiB, pods} and vCPU/memory capacity of common types (catalogue values). */
    static final Map<String, long[]> SHAPES = Map.ofEntries(
            Map.entry("c6a.large", new long[]{1930, 3114, 29, 2, 3788}),
            Map.entry("c6a.xlarge", new long[]{3920, 6584, 58, 4, 7577}),
            Map.entry("c6a.2xlarge", new long[]{7910, 14162, 58, 8, 15155}),
            Map.entry("c6a.4xlarge", new long[]{15890, 27381, 234, 16, 30310}),
            Map.entry("m6a.large", new long[]{1930, 6903, 29, 2, 7577}),
            Map.entry("m6a.xlarge", new long[]{3920, 14162, 58, 4, 15155}),
            Map.entry("m6a.2xlarge", new long[]{7910, 29317, 58, 8, 30310}),
            Map.entry("m6a.4xlarge", new long[]{15890, 57691, 234, 16, 60620}),
            Map.entry("m5.large", new long[]{1930, 6903, 29, 2, 7577}),
            Map.entry("m5.xlarge", new long[]{3920, 14162, 58, 4, 15155}),
            Map.entry("m5.2xlarge", new long[]{7910, 29317, 58, 8, 30310}),
            Map.entry("r6a.large", new long[]{1930, 14481, 29, 2, 15155}),
            Map.entry("r6a.xlarge", new long[]{3920, 29317, 58, 4, 30310}),
            Map.entry("r6a.2xlarge", new long[]{7910, 59627, 58, 8, 60620}));

    private final String name;
    private String instanceType = "m6a.xlarge";
    private String zone = "us-east-1a";
    private String capacityType = "on-demand";
    private String nodePool = "default";
    private boolean registered = true;
    private boolean initialized = true;
    private String ready = "True";
    private Instant createdAt = NOW.minusSeconds(3600);
    private Instant readySince;
    private Instant deletionTimestamp;
    private boolean unschedulable;
    private String instanceId;
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private final List<Map<String, Object>> taints = new ArrayList<>();
    /** Conditions a node agent adds (the EKS node monitoring agent's KernelReady, AcceleratedHardwareReady…). */
    private final List<Map<String, Object>> agentConditions = new ArrayList<>();
    private int images = 8;

    private DumpNode(String name) {
        this.name = name;
    }

    public static DumpNode named(String name) {
        return new DumpNode(name);
    }

    public DumpNode type(String t) { instanceType = t; return this; }
    public DumpNode zone(String z) { zone = z; return this; }
    public DumpNode spot() { capacityType = "spot"; return this; }
    public DumpNode capacityType(String ct) { capacityType = ct; return this; }
    /** The NodePool; null for a node no pool launched (a managed node group's, say). */
    public DumpNode pool(String p) { nodePool = p; return this; }
    public DumpNode uninitialized() { initialized = false; return this; }
    public DumpNode unregistered() { registered = false; initialized = false; return this; }
    /** The Ready condition's status: True, False or Unknown. */
    public DumpNode ready(String status) { ready = status; return this; }
    public DumpNode notReady() { return ready("False"); }
    public DumpNode created(Instant at) { createdAt = at; return this; }
    /** When the Ready condition last changed (default: a minute after creation). */
    public DumpNode readySince(Instant at) { readySince = at; return this; }
    /** A condition a node agent reports, as the EKS node monitoring agent writes it, e.g. KernelReady False. */
    public DumpNode condition(String type, String status, Instant since) {
        agentConditions.add(condition(type, status, status.equals("True") ? type.replace("Ready", "IsReady") : "Problem",
                "reported by the node monitoring agent", since));
        return this;
    }
    public DumpNode deleting(Instant since) { deletionTimestamp = since; return this; }
    public DumpNode cordoned() { unschedulable = true; return this; }
    public DumpNode label(String k, String v) { labels.put(k, v); return this; }
    public DumpNode annotation(String k, String v) { annotations.put(k, v); return this; }
    public DumpNode taint(String key, String value, String effect) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("effect", effect);
        t.put("key", key);
        if (value != null) {
            t.put("value", value);
        }
        taints.add(t);
        return this;
    }
    public DumpNode instanceId(String id) { instanceId = id; return this; }
    /** How many container images the node lists in its status (size realism only). */
    public DumpNode images(int n) { images = n; return this; }

    public String name() {
        return name;
    }

    public Map<String, Object> toMap() {
        long[] shape = SHAPES.getOrDefault(instanceType, new long[]{3920, 14162, 58, 4, 15155});
        String id = instanceId != null ? instanceId : "i-0" + String.format("%016x", (long) name.hashCode() & 0xffffffffffffL);
        String ip = "10.0." + ((name.hashCode() >>> 8) & 0xff) + "." + (name.hashCode() & 0xff);
        Map<String, String> l = new LinkedHashMap<>();
        l.put("beta.kubernetes.io/arch", "amd64");
        l.put("beta.kubernetes.io/instance-type", instanceType);
        l.put("beta.kubernetes.io/os", "linux");
        l.put("failure-domain.beta.kubernetes.io/region", zone.substring(0, zone.length() - 1));
        l.put("failure-domain.beta.kubernetes.io/zone", zone);
        l.put("k8s.io/cloud-provider-aws", "a1b2c3d4e5f60718293a4b5c6d7e8f90");
        l.put("kubernetes.io/arch", "amd64");
        l.put("kubernetes.io/hostname", name);
        l.put("kubernetes.io/os", "linux");
        l.put("node.kubernetes.io/instance-type", instanceType);
        l.put("topology.k8s.aws/zone-id", "use1-az" + (zone.charAt(zone.length() - 1) - 'a' + 1));
        l.put("topology.kubernetes.io/region", zone.substring(0, zone.length() - 1));
        l.put("topology.kubernetes.io/zone", zone);
        if (nodePool != null) {
            String family = instanceType.substring(0, instanceType.indexOf('.'));
            l.put("karpenter.k8s.aws/ec2nodeclass", "default");
            l.put("karpenter.k8s.aws/instance-category", family.substring(0, 1));
            l.put("karpenter.k8s.aws/instance-cpu", Long.toString(shape[3]));
            l.put("karpenter.k8s.aws/instance-family", family);
            l.put("karpenter.k8s.aws/instance-generation", family.replaceAll("[^0-9]", ""));
            l.put("karpenter.k8s.aws/instance-memory", Long.toString(shape[4]));
            l.put("karpenter.k8s.aws/instance-size", instanceType.substring(instanceType.indexOf('.') + 1));
            l.put("karpenter.sh/capacity-type", capacityType);
            l.put("karpenter.sh/nodepool", nodePool);
            if (registered) {
                l.put("karpenter.sh/registered", "true");
            }
            if (initialized) {
                l.put("karpenter.sh/initialized", "true");
            }
        } else {
            l.put("eks.amazonaws.com/capacityType", capacityType.equals("spot") ? "SPOT" : "ON_DEMAND");
            l.put("eks.amazonaws.com/nodegroup", "system");
        }
        l.putAll(labels);
        Map<String, Object> meta = new LinkedHashMap<>();
        Map<String, String> ann = new LinkedHashMap<>();
        ann.put("alpha.kubernetes.io/provided-node-ip", ip);
        if (nodePool != null) {
            ann.put("karpenter.k8s.aws/ec2nodeclass-hash", "15535182697325354914");
            ann.put("karpenter.k8s.aws/ec2nodeclass-hash-version", "v4");
            ann.put("karpenter.sh/nodepool-hash", "6821555240594823858");
            ann.put("karpenter.sh/nodepool-hash-version", "v3");
        }
        ann.put("node.alpha.kubernetes.io/ttl", "0");
        ann.put("volumes.kubernetes.io/controller-managed-attach-detach", "true");
        ann.putAll(annotations);
        meta.put("annotations", ann);
        meta.put("creationTimestamp", createdAt.toString());
        if (deletionTimestamp != null) {
            meta.put("deletionGracePeriodSeconds", 0);
            meta.put("deletionTimestamp", deletionTimestamp.toString());
        }
        if (nodePool != null) {
            meta.put("finalizers", List.of("karpenter.sh/termination"));
        }
        meta.put("labels", l);
        meta.put("managedFields", managedFields());
        meta.put("name", name);
        meta.put("resourceVersion", Integer.toString(1_000_000 + (name.hashCode() & 0xfffff)));
        meta.put("uid", uid(name));
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("providerID", "aws:///" + zone + "/" + id);
        if (!taints.isEmpty()) {
            spec.put("taints", taints);
        }
        if (unschedulable) {
            spec.put("unschedulable", true);
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("addresses", List.of(Map.of("address", ip, "type", "InternalIP"),
                Map.of("address", name, "type", "InternalDNS"), Map.of("address", name, "type", "Hostname")));
        Map<String, Object> alloc = new LinkedHashMap<>();
        alloc.put("cpu", shape[0] + "m");
        alloc.put("ephemeral-storage", "18242267924");
        alloc.put("hugepages-1Gi", "0");
        alloc.put("hugepages-2Mi", "0");
        alloc.put("memory", (shape[1] * 1024) + "Ki");
        alloc.put("pods", Long.toString(shape[2]));
        status.put("allocatable", alloc);
        Map<String, Object> cap = new LinkedHashMap<>(alloc);
        cap.put("cpu", Long.toString(shape[3]));
        cap.put("ephemeral-storage", "20959212Ki");
        cap.put("memory", (shape[4] * 1024) + "Ki");
        status.put("capacity", cap);
        Instant since = readySince != null ? readySince : createdAt.plusSeconds(60);
        List<Map<String, Object>> conditions = new ArrayList<>();
        conditions.add(condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available", createdAt));
        conditions.add(condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", createdAt));
        conditions.add(condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available", createdAt));
        conditions.add(condition("Ready", ready, ready.equals("True") ? "KubeletReady" : "KubeletNotReady",
                ready.equals("True") ? "kubelet is posting ready status" : "container runtime network not ready", since));
        conditions.addAll(agentConditions);
        status.put("conditions", conditions);
        status.put("daemonEndpoints", Map.of("kubeletEndpoint", Map.of("Port", 10250)));
        List<Map<String, Object>> imgs = new ArrayList<>();
        for (int i = 0; i < images; i++) {
            imgs.add(Map.of("names", List.of("602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/image-" + i
                    + "@sha256:" + String.format("%064x", (long) (i * 7919 + 13)), "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/image-"
                    + i + ":v1." + i + ".0-eksbuild.1"), "sizeBytes", 20_000_000L + i * 1_234_567L));
        }
        status.put("images", imgs);
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("architecture", "amd64");
        info.put("bootID", uid(name + "boot"));
        info.put("containerRuntimeVersion", "containerd://1.7.27");
        info.put("kernelVersion", "6.1.141-155.222.amzn2023.x86_64");
        info.put("kubeProxyVersion", "v1.33.0-eks-802817d");
        info.put("kubeletVersion", "v1.33.0-eks-802817d");
        info.put("machineID", String.format("ec2%029x", (long) name.hashCode() & 0xffffffffL));
        info.put("operatingSystem", "linux");
        info.put("osImage", "Amazon Linux 2023.7.20250609");
        info.put("systemUUID", String.format("ec2%029x", (long) name.hashCode() & 0xffffffffL));
        status.put("nodeInfo", info);
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("apiVersion", "v1");
        node.put("kind", "Node");
        node.put("metadata", meta);
        node.put("spec", spec);
        node.put("status", status);
        return node;
    }

    private static Map<String, Object> condition(String type, String status, String reason, String message, Instant since) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("lastHeartbeatTime", NOW.minusSeconds(40).toString());
        c.put("lastTransitionTime", since.toString());
        c.put("message", message);
        c.put("reason", reason);
        c.put("status", status);
        c.put("type", type);
        return c;
    }

    private List<Map<String, Object>> managedFields() {
        return List.of(
                DumpPod.managed("karpenter", "Update", createdAt, null, Map.of("f:metadata", Map.of(
                        "f:finalizers", Map.of(".", Map.of(), "v:\"karpenter.sh/termination\"", Map.of()),
                        "f:labels", Map.of("f:karpenter.sh/initialized", Map.of(), "f:karpenter.sh/registered", Map.of())))),
                DumpPod.managed("kubelet", "Update", createdAt, "status", Map.of("f:status", Map.of(
                        "f:allocatable", Map.of("f:cpu", Map.of(), "f:memory", Map.of(), "f:pods", Map.of()),
                        "f:conditions", Map.of("k:{\"type\":\"Ready\"}", Map.of("f:lastHeartbeatTime", Map.of(),
                                "f:lastTransitionTime", Map.of(), "f:message", Map.of(), "f:reason", Map.of(), "f:status", Map.of())),
                        "f:images", Map.of(), "f:nodeInfo", Map.of("f:bootID", Map.of())))),
                DumpPod.managed("aws-cloud-controller-manager", "Update", createdAt, null, Map.of("f:metadata", Map.of(
                        "f:labels", Map.of("f:node.kubernetes.io/instance-type", Map.of(), "f:topology.kubernetes.io/zone", Map.of())),
                        "f:spec", Map.of("f:providerID", Map.of()))));
    }

    static String uid(String seed) {
        long h = seed.hashCode() * 0x9E3779B97F4A7C15L;
        return String.format("%08x-%04x-4%03x-a%03x-%012x", (int) (h >>> 32), (int) (h >>> 16) & 0xffff, (int) h & 0xfff,
                (int) (h >>> 4) & 0xfff, (h ^ 0x5DEECE66DL) & 0xffffffffffffL);
    }
}
