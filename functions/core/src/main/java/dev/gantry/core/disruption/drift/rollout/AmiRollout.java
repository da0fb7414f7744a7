package dev.gantry.core.disruption.drift.rollout;

import dev.gantry.core.cloud.ImageKeys;
import dev.gantry.core.disruption.drift.DriftCheck;
import dev.gantry.core.lifecycle.ClaimsByNode;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where one EC2NodeClass's AMI rollout stands, decided from the claims alone (Gantry's own; Karpenter replaces
 * AMI-drifted nodes within the budgets with no health gate, so a bad AMI reaches every node a budget lets through).
 * Pure: the sweep, the provisioner's configuration and {@code gantry drift} all decide through {@link #decide}.
 *
 * <p>The rollout's target is the image the class resolves now; the claims on any other image ({@code old}) are the ones
 * to roll. The claims launched on the target, or launching now ({@code exposed}), are the canaries' evidence, whatever
 * launched them. In order:
 * <ol>
 *   <li>{@link Phase#NONE}: no claim on another image and no pause: nothing to roll.</li>
 *   <li>{@link Phase#RESUMED}: an operator named the target in {@value RolloutPolicy#RESUME}: it rolls within the budgets.</li>
 *   <li>{@link Phase#PAUSED}: a pause was recorded for this target ({@code pausedAt}).</li>
 *   <li>{@link Phase#GO}: at least {@link RolloutPolicy#canaries} exposed claims are initialized, their node Ready and
 *       no pod on it crash-looping ({@link CanaryPods}), for the soak time: the rest rolls within the budgets (from
 *       then on a canary's pods are not judged).</li>
 *   <li>{@link Phase#PAUSED} (newly, {@link #failed()}): an exposed claim failed: its launch was refused for its image
 *       ({@link NodeClaim#IMAGE_REFUSED}; a launch that found no capacity is not the image's fault), or it launched but
 *       was deleted before it initialized, or is not initialized {@link #READY_WITHIN} after its launch, or its node is
 *       NotReady after it initialized, or a pod on its node crash-loops ({@link CanaryPods}).</li>
 *   <li>{@link Phase#WAITING}: nothing is exposed yet and the cluster's start delay ({@link StartDelay}) has not passed
 *       ({@code startsAt}): nothing rolls yet.</li>
 *   <li>{@link Phase#CANARY}: fewer exposed claims than the canary wave: drift may start a replacement.</li>
 *   <li>{@link Phase#SOAK}: the canary wave is out: no further AMI drift until it has soaked.</li>
 * </ol>
 * While paused, new launches of the class use {@link #held()}: per image key ({@link ImageKeys}: the architecture and,
 * under an alias, the variant), the image most old claims of that key run.
 *
 * @param target the images the class resolves now, by image key
 * @param held   while paused, the images launches keep using, by image key; empty otherwise (or when unknown)
 * @param why    a sentence for the log and the Event
 */
public record AmiRollout(String nodeClass, Phase phase, Map<String, String> target, Map<String, String> held,
                         int canaries, int exposed, boolean failed, String why) {
    /** A canary launched this long ago that has not initialized fails the wave (ConsolidationService's launch timeout). */
    public static final Duration READY_WITHIN = Duration.ofMinutes(10);

    public enum Phase { NONE, WAITING, CANARY, SOAK, GO, PAUSED, RESUMED }

    public AmiRollout {
        target = Map.copyOf(target);
        held = Map.copyOf(held);
    }

    /** Whether drift may start replacing a node now that runs another image than the target. */
    public boolean admitsOldNodes() {
        return phase == Phase.NONE || phase == Phase.CANARY || phase == Phase.GO || phase == Phase.RESUMED;
    }

    /**
     * @param claims   the claims of the class's NodePools (any state; terminated ones still in the store count as
     *                 evidence)
     * @param nodes    the cluster's nodes by name
     * @param pausedAt when a pause was recorded for this target, if one was
     * @param resume   the class's {@value RolloutPolicy#RESUME} annotation, or null
     */
    public static AmiRollout decide(String nodeClass, RolloutPolicy policy, Map<String, String> target,
                                    List<NodeClaim> claims, Map<String, Node> nodes, Optional<Instant> pausedAt,
                                    String resume, Instant now) {
        return decide(nodeClass, policy, target, claims, nodes, pausedAt, resume, null, now);
    }

    /** As above, with the instant the rollout may begin ({@link StartDelay}; null: at once). */
    public static AmiRollout decide(String nodeClass, RolloutPolicy policy, Map<String, String> target,
                                    List<NodeClaim> claims, Map<String, Node> nodes, Optional<Instant> pausedAt,
                                    String resume, Instant startsAt, Instant now) {
        return decide(nodeClass, policy, target, claims, nodes, Images.RECORDED, pausedAt, resume, startsAt, now);
    }

    /**
     * Which image each claim runs: its recorded launch's while it launches, else its instance's as last listed; for a
     * claim whose image is not known, whether it was created after the target was first seen (then it runs the target).
     */
    public record Images(Map<String, String> byInstance, Instant targetSeenAt) {
        public static final Images RECORDED = new Images(Map.of(), null);

        public Images {
            byInstance = Map.copyOf(byInstance);
        }

        /** The claim's image, or null when not known. */
        public String of(NodeClaim c) {
            String recorded = image(c);
            return recorded != null || c.instanceId() == null ? recorded : byInstance.get(c.instanceId());
        }

        boolean launchedSinceTarget(NodeClaim c) {
            return targetSeenAt != null && c.createdAt() != null && !c.createdAt().isBefore(targetSeenAt);
        }
    }

    /** As above, with what is known of each claim's image ({@link Images}), judging no pod. */
    public static AmiRollout decide(String nodeClass, RolloutPolicy policy, Map<String, String> target,
                                    List<NodeClaim> claims, Map<String, Node> nodes, Images images,
                                    Optional<Instant> pausedAt, String resume, Instant startsAt, Instant now) {
        return decide(nodeClass, policy, target, claims, nodes, images, CanaryPods.NONE, pausedAt, resume, startsAt, now);
    }

    /** As above, with the pods the canaries run ({@link CanaryPods}: a canary whose pods crash-loop fails). */
    public static AmiRollout decide(String nodeClass, RolloutPolicy policy, Map<String, String> target,
                                    List<NodeClaim> claims, Map<String, Node> nodes, Images images, CanaryPods pods,
                                    Optional<Instant> pausedAt, String resume, Instant startsAt, Instant now) {
        // Each claim's node by the one rule (ClaimsByNode: instance id, label, then node name, a reused name refused).
        Map<String, Node> nodesOf = new ClaimsByNode(claims).nodesByClaim(List.copyOf(nodes.values()));
        List<NodeClaim> old = new ArrayList<>();
        List<NodeClaim> exposed = new ArrayList<>();
        int live = 0;
        for (NodeClaim c : claims) {
            String image = images.of(c);
            boolean deleting = c.state().isDeleting();
            live += deleting ? 0 : 1;
            if (image != null ? onTarget(target, nodesOf.get(c.name()), image)
                    : (c.state() == NodeClaimState.Launching && !deleting) || images.launchedSinceTarget(c)) {
                exposed.add(c);
            } else if (!deleting && (image != null || (c.drift() != null && DriftCheck.AMI.equals(c.drift().drifted())))) {
                old.add(c);
            }
        }
        int wave = policy.canaries(live);
        if (resume != null && target.containsValue(resume.trim())) {
            return new AmiRollout(nodeClass, Phase.RESUMED, target, Map.of(), wave, exposed.size(), false,
                    "an operator resumed the rollout onto " + resume.trim());
        }
        if (old.isEmpty() && pausedAt.isEmpty()) {
            return new AmiRollout(nodeClass, Phase.NONE, target, Map.of(), wave, exposed.size(), false, "every node runs " + target.values());
        }
        if (pausedAt.isPresent()) {
            return new AmiRollout(nodeClass, Phase.PAUSED, target, held(old, nodesOf, images, target), wave, exposed.size(), false,
                    "rollout onto " + images(target) + " paused since " + pausedAt.get());
        }
        java.util.Set<String> canaryNodes = new java.util.HashSet<>();
        exposed.forEach(c -> {
            if (nodesOf.containsKey(c.name())) {
                canaryNodes.add(nodesOf.get(c.name()).name());
            }
        });
        long soaked = exposed.stream().filter(c -> healthy(c, nodesOf)
                && !c.initializedAt().plus(policy.soak()).isAfter(now) && crashLoop(c, nodesOf, pods, canaryNodes).isEmpty()).count();
        if (soaked >= wave) {
            return new AmiRollout(nodeClass, Phase.GO, target, Map.of(), wave, exposed.size(), false,
                    soaked + " canary node(s) on " + images(target) + " soaked " + policy.soak() + ": the rest rolls within the budgets");
        }
        Optional<String> failure = exposed.stream().map(c -> failure(c, nodesOf, pods, canaryNodes, now)).flatMap(Optional::stream)
                .findFirst();
        if (failure.isPresent()) {
            return new AmiRollout(nodeClass, Phase.PAUSED, target, held(old, nodesOf, images, target), wave, exposed.size(), true,
                    "canary on " + images(target) + " failed: " + failure.get() + "; new launches keep " + images(held(old, nodesOf, images, target))
                            + " until an operator sets " + RolloutPolicy.RESUME + " to the new image");
        }
        long exposedLive = exposed.stream().filter(c -> !c.state().isDeleting()).count();
        if (exposedLive == 0 && exposed.isEmpty() && startsAt != null && now.isBefore(startsAt)) {
            return new AmiRollout(nodeClass, Phase.WAITING, target, Map.of(), wave, 0, false,
                    "rollout onto " + images(target) + " begins at " + startsAt + " (this cluster's start delay)");
        }
        if (exposedLive < wave) {
            return new AmiRollout(nodeClass, Phase.CANARY, target, Map.of(), wave, exposed.size(), false,
                    "canary wave onto " + images(target) + ": " + exposedLive + " of " + wave + " node(s) out");
        }
        return new AmiRollout(nodeClass, Phase.SOAK, target, Map.of(), wave, exposed.size(), false,
                "canary wave onto " + images(target) + " soaking " + policy.soak() + " before the rest rolls");
    }

    /**
     * Whether a claim running {@code image} on {@code node} runs its target: the target image of its node's key
     * ({@link ImageKeys}: a GPU node on the alias's standard image is not on target), or, when its node or key is not
     * known, any target image.
     */
    static boolean onTarget(Map<String, String> target, Node node, String image) {
        return (node == null ? Optional.<String>empty() : ImageKeys.imageFor(target, node.labels()))
                .map(image::equals).orElseGet(() -> target.containsValue(image));
    }

    /** The image a claim runs or will run: the one its launch recorded, when there is exactly one; else null. */
    public static String image(NodeClaim c) {
        if (c.launchParameters() == null) {
            return null;
        }
        List<String> images = c.launchParameters().templates().stream().map(t -> t.imageId())
                .filter(java.util.Objects::nonNull).distinct().toList();
        return images.size() == 1 ? images.getFirst() : null;
    }

    /** {@code nodesOf}: each claim's node by claim name ({@link ClaimsByNode}), as in every method below. */
    private static boolean healthy(NodeClaim c, Map<String, Node> nodesOf) {
        Node n = nodesOf.get(c.name());
        return !c.state().isDeleting() && c.initializedAt() != null && n != null && n.ready();
    }

    private static Optional<String> crashLoop(NodeClaim c, Map<String, Node> nodesOf, CanaryPods pods, java.util.Set<String> canaryNodes) {
        Node n = nodesOf.get(c.name());
        return n == null ? Optional.empty() : pods.crashLoop(n.name(), canaryNodes);
    }

    private static Optional<String> failure(NodeClaim c, Map<String, Node> nodesOf, CanaryPods pods, java.util.Set<String> canaryNodes,
                                            Instant now) {
        if (c.instanceId() == null) {
            // Never launched: the image's fault only when the cloud refused the image; no capacity is not.
            return NodeClaim.IMAGE_REFUSED.equals(c.deletionReason())
                    ? Optional.of("the launch of nodeclaim/" + c.name() + " was refused for its image")
                    : Optional.empty();
        }
        if (c.initializedAt() == null) {
            if (c.state().isDeleting()) {
                return Optional.of("nodeclaim/" + c.name() + " was deleted before it initialized");
            }
            Instant since = c.launchedAt() != null ? c.launchedAt() : c.createdAt();
            if (since != null && !since.plus(READY_WITHIN).isAfter(now)) {
                return Optional.of("nodeclaim/" + c.name() + " is not Ready " + READY_WITHIN.toMinutes() + " min after its launch");
            }
            return Optional.empty();
        }
        Node n = nodesOf.get(c.name());
        if (!c.state().isDeleting() && n != null && !n.ready()) {
            return Optional.of("node/" + n.name() + " went NotReady after it initialized");
        }
        return c.state().isDeleting() ? Optional.empty() : crashLoop(c, nodesOf, pods, canaryNodes);
    }

    /**
     * Per image key of {@code target} (a node's by its labels, {@link ImageKeys}), the image most old claims of that key
     * run (ties: the smaller id, so every caller picks the same); {@code nodes} by node name, each claim's found by
     * {@link ClaimsByNode}'s rule. A claim whose node is not known counts as an amd64 node without GPUs.
     */
    static Map<String, String> held(List<NodeClaim> old, Map<String, Node> nodes, Map<String, String> target) {
        return held(old, new ClaimsByNode(old).nodesByClaim(List.copyOf(nodes.values())), Images.RECORDED, target);
    }

    private static Map<String, String> held(List<NodeClaim> old, Map<String, Node> nodesOf, Images images,
                                            Map<String, String> target) {
        Map<String, Map<String, Integer>> counts = new TreeMap<>();
        for (NodeClaim c : old) {
            String image = images.of(c);
            if (image == null) {
                continue;
            }
            Node n = nodesOf.get(c.name());
            Map<String, String> labels = n == null ? Map.of() : n.labels();
            String key = ImageKeys.keyFor(target, labels).orElse(ImageKeys.archOf(labels));
            counts.computeIfAbsent(key, k -> new HashMap<>()).merge(image, 1, Integer::sum);
        }
        Map<String, String> held = new TreeMap<>();
        counts.forEach((arch, byImage) -> held.put(arch, byImage.entrySet().stream()
                .max(Comparator.comparingInt((Map.Entry<String, Integer> e) -> e.getValue())
                        .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                .orElseThrow().getKey()));
        return held;
    }

    private static String images(Map<String, String> byArch) {
        return String.join(",", new TreeMap<>(byArch).values().stream().distinct().toList());
    }
}
