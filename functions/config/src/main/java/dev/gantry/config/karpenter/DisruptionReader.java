package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodePool.Budget;
import dev.gantry.core.model.NodePool.Reason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** Reads {@code disruption.budgets} under Karpenter's CRD rules. */
final class DisruptionReader {
    private static final Pattern NODES = Pattern.compile("(100|[0-9]{1,2})%|[0-9]+");
    /** Budget durations are whole hours and minutes ({@code 8h}, {@code 30m}, {@code 1h30m}), per the CRD pattern. */
    private static final Pattern BUDGET_DURATION = Pattern.compile("(([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?");
    /** Karpenter's CRD caps budgets at 50. */
    private static final int MAX_BUDGETS = 50;

    private DisruptionReader() {
    }

    static List<Budget> budgets(YamlObject disruption) {
        List<Budget> out = new ArrayList<>();
        List<YamlObject> items = disruption.objects("budgets");
        if (items.size() > MAX_BUDGETS) {
            disruption.error("budgets", "at most " + MAX_BUDGETS + " budgets are allowed, got " + items.size());
        }
        for (YamlObject b : items) {
            Budget budget = budget(b);
            if (budget != null) {
                out.add(budget);
            }
        }
        return out;
    }

    private static Budget budget(YamlObject b) {
        b.allow("nodes", "schedule", "duration", "reasons");
        boolean ok = true;
        String nodes = b.has("nodes") ? b.string("nodes") : "10%";
        if (nodes != null && !NODES.matcher(nodes).matches()) {
            b.error("nodes", "'" + nodes + "' is not a node count or percentage (e.g. 5, 10%, 100%)");
            ok = false;
        }
        String schedule = b.string("schedule");
        if (schedule != null) {
            String problem = Cron.problem(schedule);
            if (problem != null) {
                b.error("schedule", "'" + schedule + "' is not a cron schedule: " + problem);
                ok = false;
            }
        }
        String durationText = b.string("duration");
        Duration duration = null;
        if (durationText != null) {
            if (BUDGET_DURATION.matcher(durationText).matches()) {
                duration = dev.gantry.core.model.KubeDuration.parse(durationText);
            } else {
                b.error("duration", "'" + durationText + "' is not a budget duration (hours and minutes: 8h, 30m, 1h30m)");
                ok = false;
            }
        }
        if (b.has("schedule") && !b.has("duration")) {
            b.error("schedule", "a schedule needs a duration (how long the budget is active after each firing)");
            ok = false;
        } else if (b.has("duration") && !b.has("schedule")) {
            b.error("duration", "a duration needs a schedule");
            ok = false;
        }
        List<Reason> reasons = new ArrayList<>();
        for (String r : b.strings("reasons")) {
            try {
                reasons.add(Reason.valueOf(r));
            } catch (IllegalArgumentException e) {
                b.error("reasons", "'" + r + "' is not a disruption reason (Empty, Drifted, Underutilized)"
                        + dev.gantry.config.yaml.Suggest.didYouMean(r, List.of("Empty", "Drifted", "Underutilized")));
                ok = false;
            }
        }
        return ok && nodes != null ? new Budget(nodes, Optional.ofNullable(schedule), Optional.ofNullable(duration), reasons) : null;
    }
}
