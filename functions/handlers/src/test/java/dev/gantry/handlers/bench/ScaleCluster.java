package dev.gantry.handlers.bench;

import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.ListMetaBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeListBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * A large cluster as the API server lists it, for the scale benchmarks: nodes and Deployment pods built with fabric8's
 * builders, serialized once into pages of {@value #PAGE} with continue tokens ({@link Api}), so serving a page in the
 * benchmark's JVM costs only the write of its bytes. {@code full} objects carry what a real API server sends beside the
 * fields Gantry reads: {@code metadata.managedFields} (the controller's and the kubelet's entries), the service account
 * token volume and its mounts, and on nodes the kubelet's image list (50 images, its default
 * {@code nodeStatusMaxImages}); without them the objects are the lean ones the provisioner benchmark used in s4.
 */
final class ScaleCluster {
    static final KubernetesSerialization JSON = new KubernetesSerialization();
    static final int PAGE = 500;

    private ScaleCluster() {
    }

    static String nodeName(int i) {
        return "ip-10-0-" + (i / 250) + "-" + (i % 250) + ".ec2.internal";
    }

    static String zone(int i) {
        return "us-east-1" + "abc".charAt(i % 3);
    }

    static String instanceId(int i) {
        return "i-" + String.format("%017x", i);
    }

    static Node node(int i, boolean full) {
        String name = nodeName(i);
        NodeBuilder b = new NodeBuilder().withNewMetadata().withName(name).withUid("node-" + i).withResourceVersion(Integer.toString(i + 1))
                .withCreationTimestamp("2026-06-01T09:00:00Z").withFinalizers("gantry.dev/termination")
                .addToLabels(Map.of("kubernetes.io/hostname", name, "node.kubernetes.io/instance-type", "m6i.2xlarge",
                        "topology.kubernetes.io/zone", zone(i), "karpenter.sh/nodepool", "default",
                        "karpenter.sh/capacity-type", "on-demand", "kubernetes.io/arch", "amd64",
                        "kubernetes.io/os", "linux", "karpenter.sh/registered", "true", "karpenter.sh/initialized", "true"))
                .withManagedFields(full ? NODE_FIELDS : List.of())
                .endMetadata()
                .withNewSpec().withProviderID("aws:///" + zone(i) + "/" + instanceId(i)).endSpec()
                .withNewStatus().addToAllocatable(Map.of("cpu", new Quantity("7910m"), "memory", new Quantity("31300Mi"),
                        "pods", new Quantity("58"), "ephemeral-storage", new Quantity("18242267924")))
                .addToCapacity(Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"), "pods", new Quantity("58")))
                .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady")
                .withLastTransitionTime("2026-06-01T09:01:00Z").withLastHeartbeatTime("2026-06-01T11:59:30Z").endCondition()
                .withImages(full ? IMAGES : List.of())
                .endStatus();
        return b.build();
    }

    /** A Deployment pod on {@code nodeName(node)}: two containers (the app's {@code cpu}, a 50m sidecar), a full status. */
    static Pod runningPod(int i, int node, String cpu, boolean full) {
        return base("app-" + (i / 20), i, cpu, full).editSpec().withNodeName(nodeName(node)).endSpec()
                .withNewStatus().withPhase("Running").withPodIP("10.1." + (i / 250 % 250) + "." + (i % 250)).withHostIP("10.0.0.1")
                .withStartTime("2026-06-01T10:00:05Z")
                .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime("2026-06-01T10:00:09Z").endCondition()
                .addNewCondition().withType("PodScheduled").withStatus("True").withLastTransitionTime("2026-06-01T10:00:01Z").endCondition()
                .addNewContainerStatus().withName("app").withReady(true).withRestartCount(0).withImage("app:1.2.3")
                .withImageID("sha256:" + "a".repeat(64)).withContainerID("containerd://" + "b".repeat(64)).endContainerStatus()
                .addNewContainerStatus().withName("envoy").withReady(true).withRestartCount(0).withImage("envoy:v1.30")
                .withImageID("sha256:" + "c".repeat(64)).withContainerID("containerd://" + "d".repeat(64)).endContainerStatus()
                .endStatus().build();
    }

    /** A pod kube-scheduler gave up on (no node has 500m left), of one of 20 new Deployments. */
    static Pod pendingPod(int i, boolean full) {
        return base("burst-" + (i % 20), 1_000_000 + i, "450m", full).withNewStatus().withPhase("Pending")
                .addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable")
                .withMessage("0/1000 nodes are available: 1000 Insufficient cpu.").withLastTransitionTime("2026-06-01T11:59:58Z")
                .endCondition().endStatus().build();
    }

    private static PodBuilder base(String app, int i, String cpu, boolean full) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(app + "-7d9c6b8f5-" + i).withNamespace("team-" + (i % 40))
                .withUid("0b9e2f5c-1111-4a8e-9c6f-" + String.format("%012d", i)).withResourceVersion(Integer.toString(1000 + i))
                .withCreationTimestamp("2026-06-01T10:00:00Z")
                .addToLabels(Map.of("app", app, "pod-template-hash", "7d9c6b8f5", "team", "team-" + (i % 40)))
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet").withName(app + "-7d9c6b8f5")
                .withUid("rs-" + app).withController(true).withBlockOwnerDeletion(true).endOwnerReference()
                .withManagedFields(full ? POD_FIELDS : List.of()).endMetadata()
                .withNewSpec().withServiceAccountName("default").withTerminationGracePeriodSeconds(30L)
                .addNewContainer().withName("app").withImage("123456789012.dkr.ecr.us-east-1.amazonaws.com/app:1.2.3")
                .addNewPort().withContainerPort(8080).withProtocol("TCP").endPort()
                .withNewResources().addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity("512Mi"))
                .addToLimits("memory", new Quantity("1Gi")).endResources()
                .addNewEnv().withName("JAVA_OPTS").withValue("-XX:MaxRAMPercentage=75").endEnv().endContainer()
                .addNewContainer().withName("envoy").withImage("envoyproxy/envoy:v1.30")
                .withNewResources().addToRequests("cpu", new Quantity("50m")).addToRequests("memory", new Quantity("64Mi")).endResources()
                .endContainer()
                .addNewToleration().withKey("node.kubernetes.io/not-ready").withOperator("Exists").withEffect("NoExecute")
                .withTolerationSeconds(300L).endToleration()
                .addNewToleration().withKey("node.kubernetes.io/unreachable").withOperator("Exists").withEffect("NoExecute")
                .withTolerationSeconds(300L).endToleration()
                .withPriority(0).endSpec();
        if (full) {
            b.editSpec().addNewVolume().withName("kube-api-access-x7k2p").withNewProjected().withDefaultMode(420)
                    .addNewSource().withNewServiceAccountToken().withExpirationSeconds(3607L).withPath("token").endServiceAccountToken().endSource()
                    .addNewSource().withNewConfigMap().withName("kube-root-ca.crt").addNewItem().withKey("ca.crt").withPath("ca.crt").endItem()
                    .endConfigMap().endSource()
                    .addNewSource().withNewDownwardAPI().addNewItem().withPath("namespace").withNewFieldRef().withApiVersion("v1")
                    .withFieldPath("metadata.namespace").endFieldRef().endItem().endDownwardAPI().endSource()
                    .endProjected().endVolume()
                    .editContainer(0).addNewVolumeMount().withName("kube-api-access-x7k2p").withMountPath("/var/run/secrets/kubernetes.io/serviceaccount")
                    .withReadOnly(true).endVolumeMount().endContainer()
                    .editContainer(1).addNewVolumeMount().withName("kube-api-access-x7k2p").withMountPath("/var/run/secrets/kubernetes.io/serviceaccount")
                    .withReadOnly(true).endVolumeMount().endContainer()
                    .withDnsPolicy("ClusterFirst").withRestartPolicy("Always").withSchedulerName("default-scheduler")
                    .withEnableServiceLinks(true).withPreemptionPolicy("PreemptLowerPriority").endSpec();
        }
        return b;
    }

    /** The field-ownership records the API server keeps on a Deployment's pod: the controller's and the kubelet's. */
    private static final List<ManagedFieldsEntry> POD_FIELDS = entries("""
            [{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":"2026-06-01T10:00:00Z","fieldsType":"FieldsV1",
              "fieldsV1":{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{},"f:team":{}},
                "f:ownerReferences":{".":{},"k:{\\"uid\\":\\"rs-app\\"}":{}}},
                "f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:env":{".":{},"k:{\\"name\\":\\"JAVA_OPTS\\"}":{".":{},"f:name":{},"f:value":{}}},
                  "f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":8080,\\"protocol\\":\\"TCP\\"}":{".":{},
                  "f:containerPort":{},"f:protocol":{}}},"f:resources":{".":{},"f:limits":{".":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},
                  "f:memory":{}}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}},"k:{\\"name\\":\\"envoy\\"}":{".":{},"f:image":{},
                  "f:imagePullPolicy":{},"f:name":{},"f:resources":{".":{},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},
                  "f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},
                  "f:schedulerName":{},"f:securityContext":{},"f:serviceAccount":{},"f:serviceAccountName":{},"f:terminationGracePeriodSeconds":{},
                  "f:tolerations":{}}}},
             {"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2026-06-01T10:00:09Z","fieldsType":"FieldsV1","subresource":"status",
              "fieldsV1":{"f:status":{"f:conditions":{"k:{\\"type\\":\\"ContainersReady\\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},
                "f:status":{},"f:type":{}},"k:{\\"type\\":\\"Initialized\\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},
                "f:type":{}},"k:{\\"type\\":\\"PodReadyToStartContainers\\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},
                "f:type":{}},"k:{\\"type\\":\\"Ready\\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},
                "f:containerStatuses":{},"f:hostIP":{},"f:hostIPs":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},
                "k:{\\"ip\\":\\"10.1.0.1\\"}":{".":{},"f:ip":{}}},"f:startTime":{}}}}]
            """);

    /** A node's: the kubelet's status updates, Karpenter-style labels and the taint manager's. */
    private static final List<ManagedFieldsEntry> NODE_FIELDS = entries("""
            [{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2026-06-01T09:00:30Z","fieldsType":"FieldsV1",
              "fieldsV1":{"f:metadata":{"f:annotations":{".":{},"f:alpha.kubernetes.io/provided-node-ip":{},"f:volumes.kubernetes.io/controller-managed-attach-detach":{}},
                "f:labels":{".":{},"f:beta.kubernetes.io/arch":{},"f:beta.kubernetes.io/os":{},"f:kubernetes.io/arch":{},"f:kubernetes.io/hostname":{},
                "f:kubernetes.io/os":{},"f:node.kubernetes.io/instance-type":{},"f:topology.kubernetes.io/region":{},"f:topology.kubernetes.io/zone":{}}},
                "f:spec":{"f:providerID":{}}}},
             {"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2026-06-01T11:59:30Z","fieldsType":"FieldsV1","subresource":"status",
              "fieldsV1":{"f:status":{"f:allocatable":{"f:cpu":{},"f:ephemeral-storage":{},"f:memory":{},"f:pods":{}},"f:capacity":{"f:cpu":{},
                "f:ephemeral-storage":{},"f:memory":{},"f:pods":{}},"f:conditions":{"k:{\\"type\\":\\"DiskPressure\\"}":{"f:lastHeartbeatTime":{}},
                "k:{\\"type\\":\\"MemoryPressure\\"}":{"f:lastHeartbeatTime":{}},"k:{\\"type\\":\\"PIDPressure\\"}":{"f:lastHeartbeatTime":{}},
                "k:{\\"type\\":\\"Ready\\"}":{"f:lastHeartbeatTime":{},"f:lastTransitionTime":{},"f:message":{},"f:reason":{},"f:status":{}}},
                "f:images":{},"f:nodeInfo":{"f:bootID":{},"f:containerRuntimeVersion":{},"f:kernelVersion":{},"f:kubeProxyVersion":{},
                "f:kubeletVersion":{},"f:machineID":{},"f:osImage":{},"f:systemUUID":{}}}}},
             {"manager":"gantry","operation":"Update","apiVersion":"v1","time":"2026-06-01T09:01:00Z","fieldsType":"FieldsV1",
              "fieldsV1":{"f:metadata":{"f:finalizers":{".":{},"v:\\"gantry.dev/termination\\"":{}},"f:labels":{"f:karpenter.sh/capacity-type":{},
                "f:karpenter.sh/initialized":{},"f:karpenter.sh/nodepool":{},"f:karpenter.sh/registered":{}}}}}]
            """);

    /** The kubelet's image list: 50 images, each under its digest and its tag. */
    private static final List<ContainerImage> IMAGES = IntStream.range(0, 50).mapToObj(k -> new ContainerImage(List.of(
            "123456789012.dkr.ecr.us-east-1.amazonaws.com/team-" + k + "/service@sha256:" + Integer.toHexString(k).repeat(64).substring(0, 64),
            "123456789012.dkr.ecr.us-east-1.amazonaws.com/team-" + k + "/service:v1." + k), 50_000_000L + k * 1_000_003L)).toList();

    private static List<ManagedFieldsEntry> entries(String json) {
        return List.of(JSON.unmarshal(json, ManagedFieldsEntry[].class));
    }

    /**
     * Pods and nodes in pages with continue tokens, as the API server pages a {@code limit=} list; a node by name; the
     * pods on one node ({@code fieldSelector=spec.nodeName=}); empty lists of everything else; any write accepted (201,
     * an empty object). Pages are serialized when the cluster is built.
     */
    static final class Api extends Dispatcher {
        private static final Pattern CONTINUE = Pattern.compile("continue=(\\d+)");
        private static final Pattern ON_NODE = Pattern.compile("fieldSelector=spec\\.nodeName%3D([^&]+)");
        final List<byte[]> podPages = new ArrayList<>();
        final List<byte[]> nodePages = new ArrayList<>();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger podLists = new AtomicInteger();
        final AtomicInteger nodeLists = new AtomicInteger();
        private final IntFunction<Pod> pod;
        private final IntFunction<Node> node;
        private final Map<String, Integer> nodeIndex = new java.util.HashMap<>();
        private final Map<String, List<Integer>> podsOn = new java.util.HashMap<>();

        /** {@code pods} and {@code nodes} objects, each built by index; {@code nodeOf} gives a pod's node index, -1 for none. */
        Api(int pods, IntFunction<Pod> pod, java.util.function.IntUnaryOperator nodeOf, int nodes, IntFunction<Node> node) {
            this.pod = pod;
            this.node = node;
            for (int i = 0; i < nodes; i++) {
                nodeIndex.put(nodeName(i), i);
            }
            for (int i = 0; i < pods; i++) {
                int n = nodeOf.applyAsInt(i);
                if (n >= 0) {
                    podsOn.computeIfAbsent(nodeName(n), k -> new ArrayList<>()).add(i);
                }
            }
            for (int from = 0; from < pods; from += PAGE) {
                int to = Math.min(pods, from + PAGE);
                podPages.add(bytes(new PodListBuilder().withMetadata(new ListMetaBuilder().withResourceVersion("9")
                        .withContinue(to < pods ? Integer.toString(podPages.size() + 1) : null).build())
                        .withItems(IntStream.range(from, to).mapToObj(pod).toList()).build()));
            }
            for (int from = 0; from < nodes; from += PAGE) {
                int to = Math.min(nodes, from + PAGE);
                nodePages.add(bytes(new NodeListBuilder().withMetadata(new ListMetaBuilder().withResourceVersion("9")
                        .withContinue(to < nodes ? Integer.toString(nodePages.size() + 1) : null).build())
                        .withItems(IntStream.range(from, to).mapToObj(node).toList()).build()));
            }
        }

        private static byte[] bytes(Object o) {
            return JSON.asJson(o).getBytes(StandardCharsets.UTF_8);
        }

        /** The MB of JSON in the pod pages and in the node pages. */
        double podMegabytes() {
            return podPages.stream().mapToLong(p -> p.length).sum() / 1e6;
        }

        double nodeMegabytes() {
            return nodePages.stream().mapToLong(p -> p.length).sum() / 1e6;
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String path = request.getPath();
            if (!"GET".equals(request.getMethod())) {
                writes.incrementAndGet();
                return json("{}").setResponseCode(201);
            }
            if (path.startsWith("/api/v1/nodes/")) {
                Integer i = nodeIndex.get(path.substring("/api/v1/nodes/".length()).split("\\?")[0]);
                return i == null ? json("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404}")
                        .setResponseCode(404) : json(bytes(node.apply(i)));
            }
            Matcher on = ON_NODE.matcher(path);
            if (path.startsWith("/api/v1/pods") && on.find()) {
                List<Pod> items = podsOn.getOrDefault(java.net.URLDecoder.decode(on.group(1), StandardCharsets.UTF_8), List.of())
                        .stream().map(pod::apply).toList();
                return json(bytes(new PodListBuilder().withNewMetadata().withResourceVersion("9").endMetadata().withItems(items).build()));
            }
            List<byte[]> pages = path.startsWith("/api/v1/pods") ? podPages : path.startsWith("/api/v1/nodes") ? nodePages : null;
            if (pages == null) {
                return json("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"metadata\":{\"resourceVersion\":\"9\"},\"items\":[]}");
            }
            Matcher m = CONTINUE.matcher(path);
            boolean first = !m.find();
            if (first) {
                (pages == podPages ? podLists : nodeLists).incrementAndGet();
            }
            return json(pages.get(first ? 0 : Integer.parseInt(m.group(1))));
        }

        private static MockResponse json(String body) {
            return new MockResponse().setResponseCode(200).addHeader("Content-Type", "application/json").setBody(body);
        }

        private static MockResponse json(byte[] body) {
            return new MockResponse().setResponseCode(200).addHeader("Content-Type", "application/json").setBody(body);
        }
    }
}
