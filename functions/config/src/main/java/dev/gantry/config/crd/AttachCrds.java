package dev.gantry.config.crd;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The CustomResourceDefinitions the attach step installs, in install order: Karpenter's NodePool, NodeClaim and
 * EC2NodeClass ({@link KarpenterCrd}), then the CapacityBuffer and NodeOverlay CRDs Karpenter v1.14.1 also ships. Each manifest carries
 * {@link KarpenterCrd#API_VERSION_ANNOTATION}, so an installer can tell Gantry's CRDs (and their release) from anyone
 * else's.
 */
public final class AttachCrds {
    /** Classpath location of the CapacityBuffer CRD. */
    public static final String CAPACITY_BUFFER_RESOURCE = "crds/capacitybuffers.autoscaling.x-k8s.io.yaml";
    public static final String CAPACITY_BUFFER_NAME = "capacitybuffers.autoscaling.x-k8s.io";
    /** Classpath location of the NodeOverlay CRD ({@code karpenter.sh/v1alpha1}, so not a {@link KarpenterCrd}). */
    public static final String NODE_OVERLAY_RESOURCE = "crds/nodeoverlays.karpenter.sh.yaml";
    public static final String NODE_OVERLAY_NAME = "nodeoverlays.karpenter.sh";

    /** One CRD: its {@code metadata.name} and its YAML text. */
    public record Manifest(String name, String yaml) {
    }

    private AttachCrds() {
    }

    /** Every CRD attach installs, in order. */
    public static List<Manifest> all() {
        List<Manifest> out = new ArrayList<>();
        for (KarpenterCrd c : KarpenterCrd.values()) {
            out.add(new Manifest(c.crdName(), c.manifest()));
        }
        out.add(new Manifest(CAPACITY_BUFFER_NAME, read(CAPACITY_BUFFER_RESOURCE)));
        out.add(new Manifest(NODE_OVERLAY_NAME, read(NODE_OVERLAY_RESOURCE)));
        return List.copyOf(out);
    }

    private static String read(String path) {
        try (InputStream in = AttachCrds.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing classpath resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }
}
