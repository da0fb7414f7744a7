package dev.gantry.handlers;

import com.sun.net.httpserver.HttpServer;
import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.model.Pod;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.kube.KubeCluster;
import dev.gantry.kube.KubeClients;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * Runs from a shaded deployment jar (plus this class): the cluster adapter against a minimal API server, the YAML
 * loader, the catalogue and a provisioning run, and SDK client construction. Exits non-zero on any failure, so a jar
 * that left out something its function loads fails the build. Arguments: the samples folder.
 */
public final class JarSmoke {
    private static final String POD = """
            {"kind":"PodList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"web","namespace":"default",
            "uid":"u1"},"spec":{"containers":[{"name":"c","image":"nginx","resources":{"requests":{"cpu":"500m",
            "memory":"512Mi"}}}]},"status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False",
            "reason":"Unschedulable"}]}}]}""";

    private JarSmoke() {
    }

    public static void main(String[] args) throws IOException {
        HttpServer api = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        api.createContext("/", ex -> {
            String path = ex.getRequestURI().getPath();
            String body;
            int status = 200;
            if (ex.getRequestMethod().equals("POST")) {
                body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                status = 201;
            } else if (path.equals("/api/v1/pods")) {
                body = POD;
            } else if (path.equals("/api/v1/namespaces")) {
                body = "{\"kind\":\"NamespaceList\",\"apiVersion\":\"v1\",\"items\":[{\"metadata\":{\"name\":\"default\",\"labels\":{\"a\":\"b\"}}}]}";
            } else {
                body = "{\"kind\":\"List\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[]}";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(status, bytes.length);
            ex.getResponseBody().write(bytes);
            ex.close();
        });
        api.start();
        try {
            KubeCluster cluster = new KubeCluster(KubeClients.forUrl("http://127.0.0.1:" + api.getAddress().getPort()), Clock.systemUTC());
            List<Pod> pods = cluster.pods();
            check(pods.size() == 1 && pods.get(0).isProvisionable(), "pods: " + pods);
            cluster.nodes();
            cluster.daemonSets();
            cluster.podDisruptionBudgets();
            cluster.nodesWithVolumeAttachments();
            check(cluster.namespaceLabels().containsKey("default"), "namespaces");
            cluster.event("Pod", "default", "web", "Normal", "Nominated", "smoke");

            LoadResult config = ConfigLoader.load(List.of(Path.of(args[0], "nodepools", "seed002-v1.yaml")), LoadOptions.DEFAULT);
            check(config.ok(), "config: " + config.errors());
            GantryConfig gc = new GantryConfig(config.nodePools(), config.nodeClasses(), "ap-northeast-2", List.of("ap-northeast-2a", "ap-northeast-2b"));
            InMemoryCluster mem = new InMemoryCluster();
            LoadResult work = ConfigLoader.load(List.of(Path.of(args[0], "workloads", "seed002-nginx.yaml")), LoadOptions.DEFAULT);
            work.pods().forEach(p -> mem.putPod(p.toBuilder().status(new Pod.Status("Pending", true, null, null, null)).build()));
            var out = new Provisioner(mem, mem, new InMemoryNodeClaimStore(), new SmokeCloud(), BuiltInCatalog.load("ap-northeast-2",
                    gc.zones()), gc, Clock.systemUTC()).provision();
            check(out.launched().size() == 1, "provisioning: " + out);

            // The SDK clients the composition root builds (no calls: no credentials here).
            software.amazon.awssdk.services.ec2.Ec2Client.builder().region(software.amazon.awssdk.regions.Region.US_EAST_1)
                    .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create()).build().close();
            dev.gantry.aws.dynamodb.DynamoNodeClaimStore.client(software.amazon.awssdk.regions.Region.US_EAST_1).close();
            dev.gantry.aws.sqs.SqsWorkQueue.client(software.amazon.awssdk.regions.Region.US_EAST_1).close();
            System.out.println("jar smoke ok: " + out.launched().get(0).instanceType());
        } finally {
            api.stop(0);
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("smoke check failed: " + what);
        }
    }

    /** Launches the first option's cheapest allowed offering. */
    private static final class SmokeCloud implements dev.gantry.core.cloud.CloudProvider {
        @Override
        public dev.gantry.core.cloud.LaunchResult launch(dev.gantry.core.cloud.LaunchRequest r) {
            var t = r.options().get(0);
            var o = t.cheapestOffering(r.requirements());
            return new dev.gantry.core.cloud.LaunchResult(new dev.gantry.core.cloud.CloudInstance("i-0000000000000001", t.name(),
                    o.zone(), o.capacityType(), "pending", null, null, java.util.Map.of()), List.of());
        }

        @Override public void terminate(List<String> ids) { }
        @Override public List<dev.gantry.core.cloud.CloudInstance> listInstances() { return List.of(); }
        @Override public java.util.Optional<dev.gantry.core.cloud.CloudInstance> describe(String id) { return java.util.Optional.empty(); }
    }
}
