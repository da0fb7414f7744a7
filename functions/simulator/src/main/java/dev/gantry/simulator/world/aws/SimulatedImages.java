package dev.gantry.simulator.world.aws;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The AMIs an {@code @latest} alias resolves to, per AMI family, as SSM's public parameters publish them: one image
 * for every architecture, and a release replaces it ({@link #release}) from that instant on. Launches prepared after a
 * release use the new image; the instances already running keep theirs (what AMI drift compares). The first image of
 * a family is {@code ami-sim-<family>}, so scenarios without a release launch exactly as before; a release is
 * {@code ami-sim-<family>-<version>}.
 *
 * <p>A faulty release ({@link #release(String, String, Fault, Instant)}) is one of {@link Fault}: it boots instances
 * whose kubelet registers but never reports Ready, or whose pods crash-loop once the node is Ready, or it is withdrawn
 * (deregistered) so EC2 refuses launches from it. {@link #isBad} is any of them: what must not get past a canary.
 * A deregistered release stays what {@code @latest} resolves to (SSM still names it: what happens when AWS pulls an
 * image after publishing it); CreateFleet skips a template on it, and a fleet that launched nothing else is refused
 * with EC2's {@code InvalidAMIID.NotFound} ({@link #refused}), the adapter's {@code ImageRefused}, unless another of its
 * offerings had no capacity (then, as the adapter sorts it, insufficient capacity).
 *
 * <p>Not modelled: per-architecture and per-variant images (one image id stands for every architecture, and for an
 * alias's NVIDIA and Neuron images: the simulator's NodeClasses resolve plain architecture keys, which serve every type,
 * GPU types too, where the EC2 adapter resolves an alias's variants, {@code ImageKeys}), pinned versions
 * ({@code al2023@v2026…}) and name/tag selector terms (every term but an id resolves to its family's current image), SSM's and
 * DescribeImages' latency and throttling (the adapter caches them for a minute; here free and immediate).
 */
public final class SimulatedImages {
    /** A published release: its family, version and image, and when it was published. */
    public record Release(String family, String version, String imageId, Instant at) {
    }

    /** What is wrong with a release's image. */
    public enum Fault {
        /** Nothing. */
        NONE,
        /** Its kubelet registers but never reports Ready. */
        NEVER_READY,
        /** Its nodes become Ready but the pods on them crash-loop ({@code world/kube/CrashLoops}). */
        CRASH_LOOP,
        /** Deregistered after SSM published it: EC2 refuses launches from it ({@code InvalidAMIID.NotFound}). */
        DEREGISTERED
    }

    private final Map<String, String> current = new HashMap<>();
    private final Map<String, Fault> faults = new HashMap<>();
    private final List<Release> releases = new ArrayList<>();

    /** The image {@code family}'s {@code @latest} resolves to now (family as {@code NodeClass#effectiveAmiFamily}). */
    public String current(String family) {
        return current.getOrDefault(key(family), "ami-sim-" + family);
    }

    /**
     * The image a launch of {@code nodeClass} uses now: the first {@code id} selector term when it has one (an AMI
     * pinned by id, as Gantry pins a class whose rollout paused), else its family's {@code @latest}.
     */
    public String of(dev.gantry.core.model.NodeClass nodeClass) {
        return nodeClass.amiSelectorTerms().stream().map(dev.gantry.core.model.NodeClass.AmiSelectorTerm::id)
                .filter(java.util.Objects::nonNull).findFirst().orElseGet(() -> current(nodeClass.effectiveAmiFamily()));
    }

    /** A bad release: as {@link #release}, but its instances' kubelets never report Ready. */
    public Release releaseBad(String family, String version, Instant at) {
        return release(family, version, Fault.NEVER_READY, at);
    }

    /** A release whose image has {@code fault}. */
    public Release release(String family, String version, Fault fault, Instant at) {
        Release r = release(family, version, at);
        if (fault != Fault.NONE) {
            faults.put(r.imageId(), fault);
        }
        return r;
    }

    /** What is wrong with {@code imageId} ({@link Fault#NONE} for an image without a fault, or null). */
    public Fault fault(String imageId) {
        return imageId == null ? Fault.NONE : faults.getOrDefault(imageId, Fault.NONE);
    }

    /** Whether EC2 refuses to launch {@code imageId} (it was deregistered). */
    public boolean refuses(String imageId) {
        return fault(imageId) == Fault.DEREGISTERED;
    }

    /**
     * A fleet that launched nothing: EC2's refusal of {@code refusedImage} (null: none was refused) as the adapter
     * surfaces it, when no offering had no capacity ({@code unavailable} empty); else nothing is thrown here.
     */
    public void refused(String refusedImage, List<?> unavailable) {
        if (refusedImage != null && unavailable.isEmpty()) {
            throw new dev.gantry.core.cloud.ImageRefused("InvalidAMIID.NotFound",
                    "CreateFleet launched no instance: the image id '[" + refusedImage + "]' does not exist");
        }
    }

    /** Whether {@code imageId} has any fault: a rollout onto it must stop at its canary wave. */
    public boolean isBad(String imageId) {
        return fault(imageId) != Fault.NONE;
    }

    /** AWS publishes {@code version} of {@code family} at {@code at}: {@code @latest} resolves to it from now on. */
    public Release release(String family, String version, Instant at) {
        String canonical = canonical(family);
        Release r = new Release(canonical, version, "ami-sim-" + canonical + "-" + version, at);
        current.put(key(family), r.imageId());
        releases.add(r);
        return r;
    }

    public List<Release> releases() {
        return List.copyOf(releases);
    }

    private static String key(String family) {
        return family.toLowerCase(Locale.ROOT);
    }

    /** The family as the NodeClass spells its effective family ({@code al2023} in a scenario is {@code AL2023}). */
    private static String canonical(String family) {
        return switch (key(family)) {
            case "al2023" -> "AL2023";
            case "al2" -> "AL2";
            case "bottlerocket" -> "Bottlerocket";
            case "windows2019" -> "Windows2019";
            case "windows2022" -> "Windows2022";
            case "windows2025" -> "Windows2025";
            default -> family;
        };
    }
}
