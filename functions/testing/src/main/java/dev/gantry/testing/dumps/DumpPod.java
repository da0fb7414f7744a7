package dev.gantry.testing.dumps;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Pod as the API server returns it, with defaults for what a test does not set: in namespace {@code default}, owned
 * by ReplicaSet {@code <name>-rs}, Running and Ready on its node since {@link DumpNode#NOW} minus 30 minutes, one
 * container requesting 500m and 512Mi, with the default tolerations, the service-account volume, managedFields and
 * container statuses a real pod has.
 * <ul>
 *   <li>{@link #daemonSet} pods carry the DaemonSet controller's owner reference and its node-pinning
 *       {@code matchFields metadata.name} affinity term, and tolerate everything, as aws-node and kube-proxy do.</li>
 *   <li>{@link #pending()} pods are unbound and marked {@code PodScheduled=False, reason Unschedulable}.</li>
 *   <li>{@link #succeeded()} and {@link #failed()} pods are terminal, as completed Job pods are.</li>
 * </ul>
 */
public final class DumpPod {
    private final String namespace;
    private final String name;
    private String node;
    private String ownerKind = "ReplicaSet";
    private String ownerName;
    private String phase = "Running";
    private String ready = "True";
    private boolean unschedulable;
    private Instant createdAt = DumpNode.NOW.minusSeconds(1800);
    private Instant startedAt;
    private int restarts;
    private Instant scheduledAt;
    private Instant deletionTimestamp;
    private final List<String[]> requests = new ArrayList<>();
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private final Map<String, String> nodeSelector = new LinkedHashMap<>();
    private final List<Map<String, Object>> tolerations = new ArrayList<>();
    private Map<String, Object> affinity;
    private final List<Map<String, Object>> spreads = new ArrayList<>();
    private String priorityClassName;
    private Integer priority;
    private boolean daemon;

    private DumpPod(String namespace, String name) {
        this.namespace = namespace;
        this.name = name;
        this.ownerName = name + "-rs";
        labels.put("app", name.replaceAll("-[a-z0-9]{5}$", "").replaceAll("-[0-9]+$", ""));
    }

    public static DumpPod named(String name) {
        return new DumpPod("default", name);
    }

    public static DumpPod named(String namespace, String name) {
        return new DumpPod(namespace, name);
    }

    /** A DaemonSet's pod on {@code node}: owner reference, node-pinning affinity, tolerate-all, system priority. */
    public static DumpPod daemonSet(String namespace, String daemonSet, String node, String cpu, String memory) {
        DumpPod p = new DumpPod(namespace, daemonSet + "-" + String.format("%05x", node.hashCode() & 0xfffff));
        p.daemon = true;
        p.ownerKind = "DaemonSet";
        p.ownerName = daemonSet;
        p.node = node;
        p.labels.clear();
        p.labels.put("app.kubernetes.io/name", daemonSet);
        p.labels.put("controller-revision-hash", "6c8d7f9b5");
        p.labels.put("pod-template-generation", "1");
        p.requests.add(new String[]{cpu, memory});
        p.tolerations.add(Map.of("operator", "Exists"));
        p.priorityClassName = "system-node-critical";
        p.priority = 2000001000;
        Map<String, Object> term = Map.of("matchFields", List.of(Map.of("key", "metadata.name", "operator", "In", "values", List.of(node))));
        p.affinity = Map.of("nodeAffinity", Map.of("requiredDuringSchedulingIgnoredDuringExecution",
                Map.of("nodeSelectorTerms", List.of(term))));
        return p;
    }

    public DumpPod on(String nodeName) { node = nodeName; return this; }
    public DumpPod owner(String kind, String ownerName) { ownerKind = kind; this.ownerName = ownerName; return this; }
    /** No owner: a bare pod. */
    public DumpPod bare() { ownerKind = null; ownerName = null; return this; }
    /** Adds a container requesting {@code cpu} and {@code memory} (the first replaces the default 500m/512Mi). */
    public DumpPod requests(String cpu, String memory) { requests.add(new String[]{cpu, memory}); return this; }
    public DumpPod pending() { node = null; phase = "Pending"; ready = null; unschedulable = true; return this; }
    public DumpPod succeeded() { phase = "Succeeded"; ready = "False"; return this; }
    public DumpPod failed() { phase = "Failed"; ready = "False"; return this; }
    public DumpPod notReady() { ready = "False"; return this; }
    /**
     * Its first container crash-loops: {@code restartCount} {@code restarts}, its last run terminated with exit code 1,
     * and it waits in {@code CrashLoopBackOff} (the pod NotReady), as the kubelet reports it between two restarts.
     */
    public DumpPod crashLooping(int restarts) { this.restarts = restarts; ready = "False"; return this; }
    public DumpPod created(Instant at) { createdAt = at; return this; }
    /** {@code status.startTime} (default: 5 s after creation). */
    public DumpPod started(Instant at) { startedAt = at; return this; }
    /** When it was bound (the PodScheduled condition; default: at creation). */
    public DumpPod scheduled(Instant at) { scheduledAt = at; return this; }
    public DumpPod deleting(Instant since) { deletionTimestamp = since; return this; }
    public DumpPod label(String k, String v) { labels.put(k, v); return this; }
    public DumpPod annotation(String k, String v) { annotations.put(k, v); return this; }
    public DumpPod doNotDisrupt(String value) { return annotation("karpenter.sh/do-not-disrupt", value); }
    public DumpPod nodeSelector(String k, String v) { nodeSelector.put(k, v); return this; }
    public DumpPod tolerate(String key, String effect) {
        tolerations.add(Map.of("key", key, "operator", "Exists", "effect", effect));
        return this;
    }
    public DumpPod priorityClass(String name, int value) { priorityClassName = name; priority = value; return this; }
    /** A topology spread over {@code key} on the pod's {@code app} label. */
    public DumpPod spread(String key, int maxSkew, boolean doNotSchedule) {
        spreads.add(Map.of("labelSelector", Map.of("matchLabels", Map.of("app", labels.get("app"))), "maxSkew", maxSkew,
                "topologyKey", key, "whenUnsatisfiable", doNotSchedule ? "DoNotSchedule" : "ScheduleAnyway"));
        return this;
    }
    /** Required anti-affinity to its own {@code app} on {@code key}. */
    public DumpPod antiAffinity(String key) {
        affinity = Map.of("podAntiAffinity", Map.of("requiredDuringSchedulingIgnoredDuringExecution", List.of(
                Map.of("labelSelector", Map.of("matchLabels", Map.of("app", labels.get("app"))), "topologyKey", key))));
        return this;
    }

    public String name() {
        return name;
    }

    public Map<String, Object> toMap() {
        Instant started = startedAt != null ? startedAt : node == null ? null : createdAt.plusSeconds(5);
        Instant scheduled = scheduledAt != null ? scheduledAt : createdAt;
        Map<String, Object> meta = new LinkedHashMap<>();
        if (!annotations.isEmpty()) {
            meta.put("annotations", annotations);
        }
        meta.put("creationTimestamp", createdAt.toString());
        if (deletionTimestamp != null) {
            meta.put("deletionGracePeriodSeconds", 30);
            meta.put("deletionTimestamp", deletionTimestamp.toString());
        }
        if (ownerName != null) {
            meta.put("generateName", ownerName + "-");
        }
        Map<String, String> l = new LinkedHashMap<>(labels);
        if ("ReplicaSet".equals(ownerKind)) {
            l.putIfAbsent("pod-template-hash", "7d4b9c8f6d");
        }
        meta.put("labels", l);
        meta.put("managedFields", managedFields());
        meta.put("name", name);
        meta.put("namespace", namespace);
        if (ownerKind != null) {
            Map<String, Object> ref = new LinkedHashMap<>();
            ref.put("apiVersion", ownerKind.equals("Job") ? "batch/v1" : ownerKind.equals("Node") ? "v1" : "apps/v1");
            ref.put("blockOwnerDeletion", true);
            ref.put("controller", true);
            ref.put("kind", ownerKind);
            ref.put("name", ownerName);
            ref.put("uid", DumpNode.uid(ownerKind + ownerName));
            meta.put("ownerReferences", List.of(ref));
        }
        meta.put("resourceVersion", Integer.toString(2_000_000 + (name.hashCode() & 0xfffff)));
        meta.put("uid", DumpNode.uid(namespace + "/" + name));

        Map<String, Object> spec = new LinkedHashMap<>();
        if (affinity != null) {
            spec.put("affinity", affinity);
        }
        List<String[]> rs = requests.isEmpty() ? List.<String[]>of(new String[]{"500m", "512Mi"}) : requests;
        List<Map<String, Object>> containers = new ArrayList<>();
        for (int i = 0; i < rs.size(); i++) {
            containers.add(container(i == 0 ? (daemon ? ownerName : "app") : "sidecar-" + i, rs.get(i)));
        }
        spec.put("containers", containers);
        spec.put("dnsPolicy", "ClusterFirst");
        spec.put("enableServiceLinks", true);
        if (node != null) {
            spec.put("nodeName", node);
        }
        if (!nodeSelector.isEmpty()) {
            spec.put("nodeSelector", nodeSelector);
        }
        spec.put("preemptionPolicy", "PreemptLowerPriority");
        spec.put("priority", priority == null ? 0 : priority);
        if (priorityClassName != null) {
            spec.put("priorityClassName", priorityClassName);
        }
        spec.put("restartPolicy", "Job".equals(ownerKind) ? "Never" : "Always");
        spec.put("schedulerName", "default-scheduler");
        spec.put("securityContext", Map.of());
        spec.put("serviceAccount", "default");
        spec.put("serviceAccountName", "default");
        spec.put("terminationGracePeriodSeconds", 30);
        List<Map<String, Object>> tol = new ArrayList<>(tolerations);
        if (!daemon) {
            tol.add(Map.of("effect", "NoExecute", "key", "node.kubernetes.io/not-ready", "operator", "Exists", "tolerationSeconds", 300));
            tol.add(Map.of("effect", "NoExecute", "key", "node.kubernetes.io/unreachable", "operator", "Exists", "tolerationSeconds", 300));
        }
        spec.put("tolerations", tol);
        if (!spreads.isEmpty()) {
            spec.put("topologySpreadConstraints", spreads);
        }
        spec.put("volumes", List.of(Map.of("name", "kube-api-access-" + String.format("%05x", name.hashCode() & 0xfffff),
                "projected", Map.of("defaultMode", 420, "sources", List.of(
                        Map.of("serviceAccountToken", Map.of("expirationSeconds", 3607, "path", "token")),
                        Map.of("configMap", Map.of("items", List.of(Map.of("key", "ca.crt", "path", "ca.crt")), "name", "kube-root-ca.crt")))))));

        Map<String, Object> status = new LinkedHashMap<>();
        List<Map<String, Object>> conditions = new ArrayList<>();
        if (unschedulable) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("lastProbeTime", null);
            c.put("lastTransitionTime", createdAt.plusSeconds(1).toString());
            c.put("message", "0/12 nodes are available: 12 Insufficient cpu. preemption: 0/12 nodes are available: 12 No preemption victims found for incoming pod.");
            c.put("reason", "Unschedulable");
            c.put("status", "False");
            c.put("type", "PodScheduled");
            conditions.add(c);
        } else if (node != null) {
            conditions.add(podCondition("Initialized", "True", started));
            if (ready != null) {
                conditions.add(podCondition("Ready", ready, started.plusSeconds(8)));
                conditions.add(podCondition("ContainersReady", ready, started.plusSeconds(8)));
            }
            conditions.add(podCondition("PodScheduled", "True", scheduled));
        }
        status.put("conditions", conditions);
        if (node != null) {
            List<Map<String, Object>> cs = new ArrayList<>();
            for (int i = 0; i < rs.size(); i++) {
                cs.add(containerStatus(i == 0 ? (daemon ? ownerName : "app") : "sidecar-" + i, started));
            }
            status.put("containerStatuses", cs);
            String ip = "10.0." + ((name.hashCode() >>> 8) & 0xff) + "." + (name.hashCode() & 0xff);
            status.put("hostIP", "10.0.1." + (node.hashCode() & 0xff));
            status.put("phase", phase);
            status.put("podIP", ip);
            status.put("podIPs", List.of(Map.of("ip", ip)));
        } else {
            status.put("phase", phase);
        }
        status.put("qosClass", "Burstable");
        if (started != null) {
            status.put("startTime", started.toString());
        }
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        pod.put("metadata", meta);
        pod.put("spec", spec);
        pod.put("status", status);
        return pod;
    }

    private Map<String, Object> container(String cname, String[] req) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("image", "123456789012.dkr.ecr.us-east-1.amazonaws.com/" + cname + ":1.4.2");
        c.put("imagePullPolicy", "IfNotPresent");
        c.put("name", cname);
        if (!daemon) {
            c.put("ports", List.of(Map.of("containerPort", 8080, "name", "http", "protocol", "TCP")));
            c.put("readinessProbe", Map.of("failureThreshold", 3, "httpGet", Map.of("path", "/healthz", "port", 8080, "scheme", "HTTP"),
                    "periodSeconds", 10, "successThreshold", 1, "timeoutSeconds", 1));
        }
        Map<String, Object> resources = new LinkedHashMap<>();
        resources.put("requests", Map.of("cpu", req[0], "memory", req[1]));
        c.put("resources", resources);
        c.put("terminationMessagePath", "/dev/termination-log");
        c.put("terminationMessagePolicy", "File");
        c.put("volumeMounts", List.of(Map.of("mountPath", "/var/run/secrets/kubernetes.io/serviceaccount", "name",
                "kube-api-access-" + String.format("%05x", name.hashCode() & 0xfffff), "readOnly", true)));
        return c;
    }

    private Map<String, Object> containerStatus(String cname, Instant started) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("containerID", "containerd://" + String.format("%064x", (long) (name + cname).hashCode() & 0xffffffffL));
        s.put("image", "123456789012.dkr.ecr.us-east-1.amazonaws.com/" + cname + ":1.4.2");
        s.put("imageID", "123456789012.dkr.ecr.us-east-1.amazonaws.com/" + cname + "@sha256:" + String.format("%064x", (long) cname.hashCode() & 0xffffffffL));
        s.put("lastState", Map.of());
        s.put("name", cname);
        boolean terminal = phase.equals("Succeeded") || phase.equals("Failed");
        s.put("ready", "True".equals(ready) && !terminal);
        boolean looping = restarts > 0 && !terminal && (cname.equals("app") || cname.equals(ownerName));
        s.put("restartCount", looping ? restarts : 0);
        s.put("started", !terminal && !looping);
        if (looping) {
            s.put("lastState", Map.of("terminated", Map.of("containerID", "containerd://def", "exitCode", 1,
                    "finishedAt", started.plusSeconds(60).toString(), "reason", "Error", "startedAt", started.plusSeconds(55).toString())));
            s.put("state", Map.of("waiting", Map.of("message", "back-off 40s restarting failed container=" + cname + " pod=" + name
                    + "_" + namespace + "(uid)", "reason", "CrashLoopBackOff")));
        } else if (terminal) {
            s.put("state", Map.of("terminated", Map.of("containerID", "containerd://abc", "exitCode", phase.equals("Succeeded") ? 0 : 1,
                    "finishedAt", started.plusSeconds(120).toString(), "reason", phase.equals("Succeeded") ? "Completed" : "Error",
                    "startedAt", started.toString())));
        } else {
            s.put("state", Map.of("running", Map.of("startedAt", started.plusSeconds(2).toString())));
        }
        return s;
    }

    private static Map<String, Object> podCondition(String type, String status, Instant at) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("lastProbeTime", null);
        c.put("lastTransitionTime", at.toString());
        c.put("status", status);
        c.put("type", type);
        return c;
    }

    private List<Map<String, Object>> managedFields() {
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(managed(daemon ? "kube-controller-manager" : "kube-controller-manager", "Update", createdAt, null, Map.of(
                "f:metadata", Map.of("f:generateName", Map.of(), "f:labels", Map.of(".", Map.of(), "f:app", Map.of()),
                        "f:ownerReferences", Map.of(".", Map.of(), "k:{\"uid\":\"" + DumpNode.uid(ownerKind + ownerName) + "\"}", Map.of())),
                "f:spec", Map.of("f:containers", Map.of("k:{\"name\":\"app\"}", Map.of(".", Map.of(), "f:image", Map.of(),
                        "f:name", Map.of(), "f:resources", Map.of(".", Map.of(), "f:requests", Map.of()))),
                        "f:dnsPolicy", Map.of(), "f:restartPolicy", Map.of(), "f:schedulerName", Map.of(),
                        "f:terminationGracePeriodSeconds", Map.of()))));
        if (node != null) {
            out.add(managed("kubelet", "Update", createdAt.plusSeconds(10), "status", Map.of("f:status", Map.of(
                    "f:conditions", Map.of("k:{\"type\":\"Ready\"}", Map.of(".", Map.of(), "f:lastProbeTime", Map.of(),
                            "f:lastTransitionTime", Map.of(), "f:status", Map.of(), "f:type", Map.of())),
                    "f:containerStatuses", Map.of(), "f:hostIP", Map.of(), "f:phase", Map.of(), "f:podIP", Map.of(),
                    "f:startTime", Map.of()))));
        }
        return out;
    }

    static Map<String, Object> managed(String manager, String operation, Instant at, String subresource, Map<String, Object> fields) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("apiVersion", "v1");
        m.put("fieldsType", "FieldsV1");
        m.put("fieldsV1", fields);
        m.put("manager", manager);
        m.put("operation", operation);
        if (subresource != null) {
            m.put("subresource", subresource);
        }
        m.put("time", at.toString());
        return m;
    }
}
