package dev.gantry.config.crd;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The CustomResourceDefinitions of the API Karpenter v1.14 serves, which Gantry installs (or finds already installed)
 * so that users keep their NodePools, EC2NodeClasses and NodeClaims as cluster objects.
 *
 * <p>Each manifest is a classpath resource under {@code crds/}, an {@code apiextensions.k8s.io/v1}
 * CustomResourceDefinition in YAML, so that the attach handler and the CDK app apply the same bytes. Group, version,
 * names, printer columns, subresources, schema and CEL rules are Karpenter v1.14.1's; the manifests say where each
 * fact comes from.
 */
public enum KarpenterCrd {
    NODE_POOL("karpenter.sh", "NodePool", "nodepools"),
    NODE_CLAIM("karpenter.sh", "NodeClaim", "nodeclaims"),
    EC2_NODE_CLASS("karpenter.k8s.aws", "EC2NodeClass", "ec2nodeclasses");

    /** The only version served and stored, for all three. */
    public static final String VERSION = "v1";
    /**
     * Annotation on each manifest naming the Karpenter release whose API it serves, so that an installer can tell
     * Gantry's CRDs from Karpenter's (which lack it) and never replace a newer Karpenter CRD with these.
     */
    public static final String API_VERSION_ANNOTATION = "gantry.dev/karpenter-api-version";
    /** The Karpenter release these manifests follow. */
    public static final String KARPENTER_RELEASE = "v1.14.1";

    private final String group;
    private final String kind;
    private final String plural;

    KarpenterCrd(String group, String kind, String plural) {
        this.group = group;
        this.kind = kind;
        this.plural = plural;
    }

    public String group() {
        return group;
    }

    public String kind() {
        return kind;
    }

    public String plural() {
        return plural;
    }

    /** {@code group/v1}, as an object's {@code apiVersion} reads. */
    public String apiVersion() {
        return group + "/" + VERSION;
    }

    /** The CRD's {@code metadata.name}: plural.group. */
    public String crdName() {
        return plural + "." + group;
    }

    /** Classpath location of the manifest, for loaders that take a path. */
    public String resourcePath() {
        return "crds/" + crdName() + ".yaml";
    }

    /** The manifest's YAML text. */
    public String manifest() {
        try (InputStream in = KarpenterCrd.class.getClassLoader().getResourceAsStream(resourcePath())) {
            if (in == null) {
                throw new IllegalStateException("missing classpath resource " + resourcePath());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resourcePath(), e);
        }
    }

    /** The CRD that serves objects of this apiVersion and kind, if one of these does. */
    public static Optional<KarpenterCrd> serving(String apiVersion, String kind) {
        for (KarpenterCrd c : values()) {
            if (c.apiVersion().equals(apiVersion) && c.kind.equals(kind)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
