package dev.gantry.kube;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;

/** Loads the YAML manifests under {@code src/test/resources/manifests} and creates them in a (mock) cluster. */
final class Manifests {
    private Manifests() {
    }

    static Pod pod(KubernetesClient client, String file) {
        return client.pods().load(open(file)).item();
    }

    static Node node(KubernetesClient client, String file) {
        return client.nodes().load(open(file)).item();
    }

    /** Creates the pod as written, status included (the CRUD mock keeps what it is given). */
    static Pod createPod(KubernetesClient client, String file) {
        return client.resource(pod(client, file)).create();
    }

    static Node createNode(KubernetesClient client, String file) {
        return client.resource(node(client, file)).create();
    }

    private static InputStream open(String file) {
        InputStream in = Manifests.class.getResourceAsStream("/manifests/" + file);
        if (in == null) {
            throw new IllegalArgumentException("no manifest " + file);
        }
        return in;
    }
}
