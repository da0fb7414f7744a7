package dev.gantry.core.model;

import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Karpenter {@code karpenter.sh/v1} NodePool, the one shape Gantry works with. Older schemas (v1beta1 NodePool,
 * v1alpha5 Provisioner) are converted into this by the config loader.
 *
 * @param weight      1–100, higher first; null when unset (treated as 0, after every weighted pool)
 * @param limits      resource name ({@code cpu}, {@code memory}, {@code nodes}, any extended resource) to the ceiling
 * @param convertedFrom the apiVersion/kind this was converted from, or null when written as v1
 * @param replicas    {@code spec.replicas} of a static NodePool (Karpenter v1.8+), or null for a dynamic one; a static
 *                    pool's nodes are kept by count and never consolidated
 */
public record NodePool(String name, Map<String, String> annotations, Template template, Disruption disruption,
                       Map<String, Quantity> limits, Integer weight, String convertedFrom, Integer replicas) {

    /** A dynamic NodePool (no {@code replicas}). */
    public NodePool(String name, Map<String, String> annotations, Template template, Disruption disruption,
                    Map<String, Quantity> limits, Integer weight, String convertedFrom) {
        this(name, annotations, template, disruption, limits, weight, convertedFrom, null);
    }

    /** A static NodePool: {@code replicas} is set. */
    public boolean isStatic() {
        return replicas != null;
    }

    public NodePool {
        Objects.requireNonNull(name, "name");
        annotations = Map.copyOf(annotations == null ? Map.of() : annotations);
        Objects.requireNonNull(template, "template");
        disruption = disruption == null ? Disruption.DEFAULT : disruption;
        limits = Map.copyOf(limits == null ? Map.of() : limits);
    }

    /** {@code spec.template}: what every node of this pool looks like. */
    public record Template(Map<String, String> labels, Map<String, String> annotations, List<Taint> taints,
                           List<Taint> startupTaints, List<Requirement> requirements, NodeClassRef nodeClassRef,
                           Optional<Duration> expireAfter, Optional<Duration> terminationGracePeriod) {
        /** Karpenter's default {@code expireAfter}: 720h. */
        public static final Duration DEFAULT_EXPIRE_AFTER = Duration.ofHours(720);

        public Template {
            labels = Map.copyOf(labels == null ? Map.of() : labels);
            annotations = Map.copyOf(annotations == null ? Map.of() : annotations);
            taints = List.copyOf(taints == null ? List.of() : taints);
            startupTaints = List.copyOf(startupTaints == null ? List.of() : startupTaints);
            requirements = List.copyOf(requirements == null ? List.of() : requirements);
            expireAfter = expireAfter == null ? Optional.of(DEFAULT_EXPIRE_AFTER) : expireAfter;
            terminationGracePeriod = terminationGracePeriod == null ? Optional.empty() : terminationGracePeriod;
        }
    }

    /** {@code nodeClassRef}; group and kind default to {@code karpenter.k8s.aws}/{@code EC2NodeClass}. */
    public record NodeClassRef(String group, String kind, String name) {
        public NodeClassRef {
            group = group == null || group.isEmpty() ? "karpenter.k8s.aws" : group;
            kind = kind == null || kind.isEmpty() ? "EC2NodeClass" : kind;
            Objects.requireNonNull(name, "name");
        }
    }

    public enum ConsolidationPolicy {
        WhenEmpty, WhenEmptyOrUnderutilized, Balanced;

        public static ConsolidationPolicy parse(String s) {
            for (ConsolidationPolicy p : values()) {
                if (p.name().equals(s)) {
                    return p;
                }
            }
            throw new IllegalArgumentException("'" + s + "' is not a consolidationPolicy (WhenEmpty, WhenEmptyOrUnderutilized, Balanced)");
        }
    }

    /** Disruption reasons a budget can name. */
    public enum Reason { Empty, Drifted, Underutilized }

    /**
     * {@code spec.disruption}. {@code consolidateAfter} empty means {@code Never}.
     */
    public record Disruption(ConsolidationPolicy consolidationPolicy, Optional<Duration> consolidateAfter, List<Budget> budgets) {
        /** Karpenter's defaults: WhenEmptyOrUnderutilized, consolidateAfter 0s, one budget of 10% of nodes. */
        public static final Disruption DEFAULT = new Disruption(ConsolidationPolicy.WhenEmptyOrUnderutilized,
                Optional.of(Duration.ZERO), List.of(Budget.DEFAULT));

        public Disruption {
            consolidationPolicy = consolidationPolicy == null ? ConsolidationPolicy.WhenEmptyOrUnderutilized : consolidationPolicy;
            consolidateAfter = consolidateAfter == null ? Optional.of(Duration.ZERO) : consolidateAfter;
            budgets = List.copyOf(budgets == null || budgets.isEmpty() ? List.of(Budget.DEFAULT) : budgets);
        }
    }

    /**
     * A disruption budget: at most {@code nodes} (a count like {@code "5"} or a percentage like {@code "10%"}) nodes
     * disrupted at once, for the given reasons (all when empty), active for {@code duration} after each firing of the
     * UTC cron {@code schedule} (always, when there is no schedule).
     */
    public record Budget(String nodes, Optional<String> schedule, Optional<Duration> duration, List<Reason> reasons) {
        public static final Budget DEFAULT = new Budget("10%", Optional.empty(), Optional.empty(), List.of());

        public Budget {
            Objects.requireNonNull(nodes, "nodes");
            schedule = schedule == null ? Optional.empty() : schedule;
            duration = duration == null ? Optional.empty() : duration;
            reasons = List.copyOf(reasons == null ? List.of() : reasons);
        }

        /** How many of {@code total} nodes this budget allows to be disrupted; percentages round up, as Karpenter does. */
        public int allowedOf(int total) {
            if (nodes.endsWith("%")) {
                int pct = Integer.parseInt(nodes.substring(0, nodes.length() - 1));
                return (int) Math.ceil(total * pct / 100.0);
            }
            return Integer.parseInt(nodes);
        }
    }

    /** The pool's requirements, with the template labels as single-valued requirements (as Karpenter merges them). */
    public Requirements requirements() {
        Requirements r = Requirements.of(template.requirements());
        for (var e : template.labels().entrySet()) {
            r = r.with(e.getKey(), ValueSet.in(e.getValue()));
        }
        return r.with(WellKnownLabels.NODEPOOL, ValueSet.in(name));
    }

    /** The weight used for ordering: unset counts as 0. */
    public int effectiveWeight() {
        return weight == null ? 0 : weight;
    }

    /** The limit on a resource, if any. */
    public Optional<Quantity> limit(String resource) {
        return Optional.ofNullable(limits.get(resource));
    }
}
