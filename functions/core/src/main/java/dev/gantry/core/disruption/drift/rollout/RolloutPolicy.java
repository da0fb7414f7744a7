package dev.gantry.core.disruption.drift.rollout;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an EC2NodeClass rolls onto a new AMI (Gantry's own; Karpenter replaces AMI-drifted nodes within the budgets with
 * no health gate), from the class's annotations:
 * <ul>
 *   <li>{@value #CANARY}: the first wave, a node count ({@code "1"}) or a percentage of the class's nodes rounded up
 *       ({@code "10%"}), at least one; default {@code "1"}.</li>
 *   <li>{@value #SOAK}: how long the canary nodes must stay Ready after they initialized before the rest may go
 *       ({@code "15m"}, {@code "1h"}, {@code "90s"}); default {@link #DEFAULT_SOAK}.</li>
 *   <li>{@value #RESUME}: the AMI id an operator accepts after a pause (see {@link AmiRollout}); naming the image means a
 *       resume never waves through a newer image nobody looked at.</li>
 * </ul>
 * The default soak, 15 minutes, is Karpenter's registration TTL: a node that has not joined by then never will, so a
 * canary that soaked that long has shown it boots, joins and stays Ready; at AMI releases about weekly it adds a quarter
 * of an hour to a rollout.
 */
public record RolloutPolicy(int canaryNodes, int canaryPercent, Duration soak) {
    public static final String CANARY = "gantry.dev/drift-canary";
    public static final String SOAK = "gantry.dev/drift-soak";
    public static final String RESUME = "gantry.dev/drift-resume";
    public static final Duration DEFAULT_SOAK = Duration.ofMinutes(15);
    public static final RolloutPolicy DEFAULT = new RolloutPolicy(1, 0, DEFAULT_SOAK);

    private static final Pattern COUNT = Pattern.compile("(\\d{1,6})(%?)");
    private static final Pattern DURATION = Pattern.compile("(?:(\\d{1,4})h)?(?:(\\d{1,5})m)?(?:(\\d{1,6})s)?");

    public RolloutPolicy {
        if (canaryNodes < 0 || canaryPercent < 0 || canaryPercent > 100 || (canaryNodes == 0) == (canaryPercent == 0)) {
            throw new IllegalArgumentException("a canary is a node count or a percentage in 1..100, got " + canaryNodes
                    + " / " + canaryPercent + "%");
        }
        if (soak == null || soak.isNegative()) {
            throw new IllegalArgumentException("soak must be zero or more, got " + soak);
        }
    }

    /** The policy the annotations give; a value that does not parse falls back to its default (the reader reports it). */
    public static RolloutPolicy of(Map<String, String> annotations) {
        String canary = annotations.get(CANARY);
        String soak = annotations.get(SOAK);
        RolloutPolicy p = DEFAULT;
        if (canary != null && canaryProblem(canary).isEmpty()) {
            Matcher m = COUNT.matcher(canary.trim());
            m.matches();
            int n = Integer.parseInt(m.group(1));
            p = m.group(2).isEmpty() ? new RolloutPolicy(n, 0, p.soak()) : new RolloutPolicy(0, n, p.soak());
        }
        if (soak != null && soakProblem(soak).isEmpty()) {
            p = new RolloutPolicy(p.canaryNodes(), p.canaryPercent(), duration(soak.trim()));
        }
        return p;
    }

    /** The canary wave's size for a class of {@code nodes} nodes: at least one. */
    public int canaries(int nodes) {
        int n = canaryNodes > 0 ? canaryNodes : (int) Math.ceil(nodes * canaryPercent / 100.0);
        return Math.max(1, n);
    }

    /** What is wrong with a {@value #CANARY} value, if anything. */
    public static Optional<String> canaryProblem(String v) {
        Matcher m = COUNT.matcher(v.trim());
        if (!m.matches()) {
            return Optional.of("'" + v + "' is not a canary wave: write a node count (1) or a percentage of the class's nodes (10%)");
        }
        int n = Integer.parseInt(m.group(1));
        if (n == 0 || (!m.group(2).isEmpty() && n > 100)) {
            return Optional.of("'" + v + "' is not a canary wave: at least 1 node, or a percentage in 1%..100%");
        }
        return Optional.empty();
    }

    /** What is wrong with a {@value #SOAK} value, if anything. */
    public static Optional<String> soakProblem(String v) {
        String t = v.trim();
        if (t.isEmpty() || t.equals("0")) {
            return t.isEmpty() ? Optional.of("'' is not a soak time: write a duration such as 15m, 1h or 90s") : Optional.empty();
        }
        if (!DURATION.matcher(t).matches()) {
            return Optional.of("'" + v + "' is not a soak time: write a duration such as 15m, 1h or 90s");
        }
        return Optional.empty();
    }

    private static Duration duration(String t) {
        if (t.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = DURATION.matcher(t);
        m.matches();
        Duration d = Duration.ZERO;
        d = m.group(1) == null ? d : d.plusHours(Long.parseLong(m.group(1)));
        d = m.group(2) == null ? d : d.plusMinutes(Long.parseLong(m.group(2)));
        return m.group(3) == null ? d : d.plusSeconds(Long.parseLong(m.group(3)));
    }
}
