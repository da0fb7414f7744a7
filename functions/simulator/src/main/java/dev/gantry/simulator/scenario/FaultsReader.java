package dev.gantry.simulator.scenario;

import dev.gantry.simulator.faults.FaultPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/**
 * Reads a scenario's {@code faults:} section: rates per port call (probabilities between 0 and 1), lags, API-server
 * outages, {@code functions} that crash and hang apply to, {@code at:} faults at a chosen call of a chosen invocation,
 * and {@code chaos: true} for the seeded mix ({@link FaultPlan}). The fields are flat in the file, prefixed by
 * service ({@code ec2Throttle}, {@code apiError}, {@code dynamoConflict}); the plan groups them by section.
 */
final class FaultsReader {
    static final Set<String> FIELDS = Set.of("chaos", "crash", "hang", "functions", "ec2Throttle", "ec2Error",
            "ice", "describeLag", "apiThrottle", "apiError", "partialList", "apiOutages", "apiOutageFor", "dynamoThrottle",
            "dynamoConflict", "indexLag", "duplicates", "at");
    private static final Set<String> FUNCTIONS = Set.of("provisioner", "interruption", "termination", "sweep");

    private final ScenarioNodes yaml;

    FaultsReader(ScenarioNodes yaml) {
        this.yaml = yaml;
    }

    Scenario.FaultSpec read(Node section) {
        Map<String, NodeTuple> f = yaml.map(section, FIELDS, "faults.");
        boolean chaos = f.containsKey("chaos") && yaml.bool(f.get("chaos").getValueNode());
        return new Scenario.FaultSpec(plan(f), chaos, 1);
    }

    private FaultPlan plan(Map<String, NodeTuple> f) {
        List<String> functions = yaml.optStrings(f, "functions");
        for (int i = 0; i < functions.size(); i++) {
            if (!FUNCTIONS.contains(functions.get(i))) {
                throw yaml.error(yaml.seq(f.get("functions").getValueNode()).get(i), "unknown function '" + functions.get(i)
                        + "' (expected one of " + new TreeSet<>(FUNCTIONS) + ")");
            }
        }
        List<FaultPlan.Target> at = new ArrayList<>();
        if (f.containsKey("at")) {
            for (Node t : yaml.seq(f.get("at").getValueNode())) {
                at.add(target(t));
            }
        }
        return new FaultPlan(new FaultPlan.Invocations(rate(f, "crash"), rate(f, "hang"), functions),
                new FaultPlan.Ec2(rate(f, "ec2Throttle"), rate(f, "ec2Error"), rate(f, "ice"),
                        yaml.optDuration(f, "describeLag")),
                new FaultPlan.KubeApi(rate(f, "apiThrottle"), rate(f, "apiError"), rate(f, "partialList"),
                        (int) yaml.optInt(f, "apiOutages", 0), yaml.optDuration(f, "apiOutageFor")),
                new FaultPlan.Dynamo(rate(f, "dynamoThrottle"), rate(f, "dynamoConflict"), yaml.optDuration(f, "indexLag")),
                new FaultPlan.Sqs(rate(f, "duplicates")), at);
    }

    /** {@code {function, invocation, call, fault}}; the fault defaults to crash. */
    private FaultPlan.Target target(Node t) {
        Map<String, NodeTuple> m = yaml.map(t, Set.of("function", "invocation", "call", "fault"), "faults.at[].");
        String function = yaml.string(yaml.require(m, "function", t));
        if (!FUNCTIONS.contains(function)) {
            throw yaml.error(m.get("function").getValueNode(), "unknown function '" + function + "' (expected one of "
                    + new TreeSet<>(FUNCTIONS) + ")");
        }
        long invocation = yaml.positive(yaml.require(m, "invocation", t));
        long call = yaml.positive(yaml.require(m, "call", t));
        String what = m.containsKey("fault") ? yaml.string(m.get("fault").getValueNode()) : "crash";
        if (!FaultPlan.Target.KINDS.contains(what)) {
            throw yaml.error(m.get("fault").getValueNode(), "fault must be one of " + FaultPlan.Target.KINDS + ", not '"
                    + what + "'");
        }
        return new FaultPlan.Target(function, invocation, (int) call, what);
    }

    private double rate(Map<String, NodeTuple> m, String k) {
        if (!m.containsKey(k)) {
            return 0;
        }
        Node v = m.get(k).getValueNode();
        double p = yaml.number(v);
        if (p < 0 || p > 1) {
            throw yaml.error(v, k + " must be a probability between 0 and 1, got " + yaml.string(v));
        }
        return p;
    }
}
