package dev.gantry.simulator;

import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.model.KubeDuration;
import dev.gantry.simulator.faults.FaultPlan;
import dev.gantry.simulator.runtime.CallKind;
import dev.gantry.simulator.runtime.Latency;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Reads a scenario file, keeping line numbers: every problem is a {@link ScenarioException} naming the line (unknown
 * fields, wrong types, an event with no action or two, a referenced file that does not exist). Besides the events, a
 * scenario may carry a {@code faults:} section (rates per port call, lags, outages, {@code at:} faults at a chosen call
 * of a chosen invocation, {@code chaos: true} for the seeded mix; see {@link FaultPlan}) and a {@code latency:}
 * section ({@code scale}, and per call kind a duration or {@code min..max}; see {@link CallKind}).
 */
public final class ScenarioReader {
    private static final Set<String> TOP = Set.of("name", "region", "zones", "duration", "seed", "config", "cluster", "webhook", "events",
            "start", "ramp", "learnWeeks", "consolidation",
            "faults", "latency");
    private static final Set<String> FAULT_FIELDS = Set.of("chaos", "crash", "hang", "functions", "ec2Throttle", "ec2Error",
            "ice", "describeLag", "apiThrottle", "apiError", "partialList", "apiOutages", "apiOutageFor", "dynamoThrottle",
            "dynamoConflict", "indexLag", "duplicates", "at");
    private static final Set<String> FUNCTIONS = Set.of("provisioner", "interruption", "termination", "sweep");
    private static final List<String> ACTIONS = List.of("apply", "scale", "interrupt", "awsEvent", "deleteNode",
            "terminateAllNodes", "fault", "delete");

    private final String file;
    private final Path dir;

    private ScenarioReader(Path path) {
        this.file = path.toString();
        Path parent = path.toAbsolutePath().getParent();
        this.dir = parent == null ? Path.of(".") : parent;
    }

    public static Scenario read(Path path) {
        String text;
        try {
            text = Files.readString(path);
        } catch (IOException e) {
            throw new ScenarioException(path.toString(), 1, "cannot read the scenario: " + e.getMessage());
        }
        return new ScenarioReader(path).parse(path, text);
    }

    private Scenario parse(Path path, String text) {
        Node root;
        try {
            root = new Compose(LoadSettings.builder().setLabel(file).setSchema(new CoreSchema()).build())
                    .composeString(text).orElseThrow(() -> new ScenarioException(file, 1, "the scenario is empty"));
        } catch (MarkedYamlEngineException e) {
            int line = e.getProblemMark().map(m -> m.getLine() + 1).orElse(1);
            throw new ScenarioException(file, line, "not YAML: " + String.valueOf(e.getProblem()).replaceAll("\\s+", " ").trim());
        } catch (YamlEngineException e) {
            throw new ScenarioException(file, 1, "not YAML: " + e.getMessage());
        }
        Map<String, NodeTuple> top = map(root, TOP, "");
        String name = string(require(top, "name", root));
        String region = top.containsKey("region") ? string(top.get("region").getValueNode()) : "us-east-1";
        List<String> zones = top.containsKey("zones") ? strings(top.get("zones").getValueNode())
                : List.of(region + "a", region + "b", region + "c");
        Duration duration = duration(require(top, "duration", root));
        long seed = top.containsKey("seed") ? integer(top.get("seed").getValueNode()) : 1;
        List<Path> config = paths(require(top, "config", root));
        List<Path> manifests = List.of();
        if (top.containsKey("cluster")) {
            Map<String, NodeTuple> cluster = map(top.get("cluster").getValueNode(), Set.of("manifests"), "cluster.");
            manifests = cluster.containsKey("manifests") ? paths(cluster.get("manifests").getValueNode()) : List.of();
        }
        boolean webhook = !top.containsKey("webhook") || bool(top.get("webhook").getValueNode());
        List<Scenario.Event> events = new ArrayList<>();
        if (top.containsKey("events")) {
            for (Node e : seq(top.get("events").getValueNode())) {
                events.add(event(e, duration));
            }
        }
        // A scenario that sets nothing runs the deployed settings (DeploymentSettings, as the CDK app deploys them).
        ConsolidationSettings consolidation = Simulation.DEPLOYED.consolidation();
        if (top.containsKey("consolidation")) {
            Node c = top.get("consolidation").getValueNode();
            Map<String, NodeTuple> m = map(c, Set.of("spotToSpot", "strategy"), "consolidation.");
            boolean spotToSpot = m.containsKey("spotToSpot") ? bool(m.get("spotToSpot").getValueNode()) : consolidation.spotToSpot();
            ConsolidationSettings.Strategy strategy = consolidation.strategy();
            if (m.containsKey("strategy")) {
                String v = string(m.get("strategy").getValueNode());
                if (!v.equals("gantry") && !v.equals("karpenter")) {
                    throw new ScenarioException(file, m.get("strategy").getValueNode().getStartMark().map(x -> x.getLine() + 1).orElse(1),
                            "consolidation.strategy: is gantry or karpenter, not '" + v + "'");
                }
                strategy = dev.gantry.config.deployment.ConsolidationVariables.strategy(v);
            }
            consolidation = new ConsolidationSettings(spotToSpot, strategy);
        }
        FaultPlan faults = FaultPlan.NONE;
        boolean chaos = false;
        if (top.containsKey("faults")) {
            Node fn = top.get("faults").getValueNode();
            Map<String, NodeTuple> f = map(fn, FAULT_FIELDS, "faults.");
            chaos = f.containsKey("chaos") && bool(f.get("chaos").getValueNode());
            faults = faults(f);
        }
        Scenario.LatencySpec latency = top.containsKey("latency") ? latency(top.get("latency").getValueNode())
                : Scenario.LatencySpec.AWS;
        Scenario.Run run = run(top, duration, seed);
        return new Scenario(path, name, new Scenario.Cluster(region, zones, manifests), run,
                new Scenario.Gantry(config, webhook, consolidation, true), events, new Scenario.FaultSpec(faults, chaos, 1),
                latency);
    }

    /** {@code start} (an RFC 3339 UTC instant), {@code ramp: {from, until}} and {@code learnWeeks}. */
    private Scenario.Run run(Map<String, NodeTuple> top, Duration total, long seed) {
        java.time.Instant start = null;
        if (top.containsKey("start")) {
            Node v = top.get("start").getValueNode();
            try {
                start = java.time.Instant.parse(string(v));
            } catch (java.time.format.DateTimeParseException e) {
                throw error(v, "start must be a UTC instant such as 2025-06-02T00:00:00Z, not '" + string(v) + "'");
            }
        }
        Scenario.Window ramp = null;
        if (top.containsKey("ramp")) {
            Node v = top.get("ramp").getValueNode();
            Map<String, NodeTuple> r = map(v, Set.of("from", "until"), "ramp.");
            Duration from = duration(require(r, "from", v));
            Duration until = duration(require(r, "until", v));
            if (until.compareTo(from) <= 0 || until.compareTo(total) > 0) {
                throw error(v, "ramp must satisfy from < until <= duration");
            }
            ramp = new Scenario.Window(from, until);
        }
        int weeks = 0;
        if (top.containsKey("learnWeeks")) {
            Node v = top.get("learnWeeks").getValueNode();
            long w = integer(v);
            if (w < 0 || w > dev.gantry.core.headroom.DemandHistory.WEEKS) {
                throw error(v, "learnWeeks must be 0 to " + dev.gantry.core.headroom.DemandHistory.WEEKS);
            }
            weeks = (int) w;
        }
        return new Scenario.Run(total, seed, start, ramp, weeks);
    }

    private FaultPlan faults(Map<String, NodeTuple> f) {
        List<String> functions = optStrings(f, "functions");
        for (int i = 0; i < functions.size(); i++) {
            if (!FUNCTIONS.contains(functions.get(i))) {
                throw error(seq(f.get("functions").getValueNode()).get(i), "unknown function '" + functions.get(i)
                        + "' (expected one of " + new java.util.TreeSet<>(FUNCTIONS) + ")");
            }
        }
        List<FaultPlan.Target> at = new ArrayList<>();
        if (f.containsKey("at")) {
            for (Node t : seq(f.get("at").getValueNode())) {
                Map<String, NodeTuple> m = map(t, Set.of("function", "invocation", "call", "fault"), "faults.at[].");
                String function = string(require(m, "function", t));
                if (!FUNCTIONS.contains(function)) {
                    throw error(m.get("function").getValueNode(), "unknown function '" + function + "' (expected one of "
                            + new java.util.TreeSet<>(FUNCTIONS) + ")");
                }
                long invocation = positive(require(m, "invocation", t));
                long call = positive(require(m, "call", t));
                String what = m.containsKey("fault") ? string(m.get("fault").getValueNode()) : "crash";
                if (!FaultPlan.Target.KINDS.contains(what)) {
                    throw error(m.get("fault").getValueNode(), "fault must be one of " + FaultPlan.Target.KINDS + ", not '" + what + "'");
                }
                at.add(new FaultPlan.Target(function, invocation, (int) call, what));
            }
        }
        return new FaultPlan(new FaultPlan.Invocations(rate(f, "crash"), rate(f, "hang"), functions),
                new FaultPlan.Ec2(rate(f, "ec2Throttle"), rate(f, "ec2Error"), rate(f, "ice"), optDuration(f, "describeLag")),
                new FaultPlan.KubeApi(rate(f, "apiThrottle"), rate(f, "apiError"), rate(f, "partialList"),
                        (int) optInt(f, "apiOutages", 0), optDuration(f, "apiOutageFor")),
                new FaultPlan.Dynamo(rate(f, "dynamoThrottle"), rate(f, "dynamoConflict"), optDuration(f, "indexLag")),
                new FaultPlan.Sqs(rate(f, "duplicates")), at);
    }

    private Scenario.LatencySpec latency(Node n) {
        Set<String> allowed = new java.util.HashSet<>();
        allowed.add("scale");
        Map<String, CallKind> kinds = new LinkedHashMap<>();
        for (CallKind k : CallKind.values()) {
            kinds.put(k.yamlName(), k);
        }
        allowed.addAll(kinds.keySet());
        Map<String, NodeTuple> m = map(n, allowed, "latency.");
        double scale = 1;
        Map<CallKind, Latency.Range> overrides = new LinkedHashMap<>();
        for (Map.Entry<String, NodeTuple> e : m.entrySet()) {
            Node v = e.getValue().getValueNode();
            if (e.getKey().equals("scale")) {
                scale = number(v);
                if (scale < 0) {
                    throw error(v, "scale must not be negative");
                }
                continue;
            }
            String text = string(v);
            String[] parts = text.split("\\.\\.", -1);
            if (parts.length > 2) {
                throw error(v, "'" + text + "' is not a latency (like 20ms, or 1s..2s)");
            }
            Duration min = durationText(v, parts[0].trim());
            Duration max = parts.length == 2 ? durationText(v, parts[1].trim()) : min;
            if (max.compareTo(min) < 0) {
                throw error(v, "the upper bound " + parts[1].trim() + " is below the lower bound " + parts[0].trim());
            }
            overrides.put(kinds.get(e.getKey()), new Latency.Range(min, max));
        }
        return new Scenario.LatencySpec(overrides, scale);
    }

    private Duration durationText(Node n, String text) {
        try {
            if (text.endsWith("ms") && text.length() > 2) {
                return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
            }
            return KubeDuration.parse(text);
        } catch (IllegalArgumentException e) {
            throw error(n, "'" + text + "' is not a duration (like 20ms, 1s)");
        }
    }

    private double rate(Map<String, NodeTuple> m, String k) {
        if (!m.containsKey(k)) {
            return 0;
        }
        Node v = m.get(k).getValueNode();
        double p = number(v);
        if (p < 0 || p > 1) {
            throw error(v, k + " must be a probability between 0 and 1, got " + string(v));
        }
        return p;
    }

    private double number(Node n) {
        try {
            return Double.parseDouble(string(n));
        } catch (NumberFormatException e) {
            throw error(n, "expected a number, got '" + string(n) + "'");
        }
    }

    private long positive(Node n) {
        long v = integer(n);
        if (v < 1) {
            throw error(n, "expected a positive integer (counting from 1), got " + v);
        }
        return v;
    }

    private Duration optDuration(Map<String, NodeTuple> m, String k) {
        return m.containsKey(k) ? duration(m.get(k).getValueNode()) : Duration.ZERO;
    }

    private Scenario.Event event(Node n, Duration total) {
        Set<String> allowed = new java.util.HashSet<>(ACTIONS);
        allowed.addAll(Set.of("at", "instance"));
        Map<String, NodeTuple> f = map(n, allowed, "events[].");
        Duration at = duration(require(f, "at", n));
        if (at.compareTo(total) > 0) {
            throw error(f.get("at").getValueNode(), "event at " + KubeDuration.format(at) + " is after the end ("
                    + KubeDuration.format(total) + ")");
        }
        List<String> present = ACTIONS.stream().filter(f::containsKey).toList();
        if (present.size() != 1) {
            throw error(n, present.isEmpty() ? "an event needs one of " + ACTIONS : "an event has one action, not " + present);
        }
        String kind = present.getFirst();
        Node v = f.get(kind).getValueNode();
        Scenario.Action action = switch (kind) {
            case "apply" -> new Scenario.Apply(existing(v));
            case "scale" -> {
                Map<String, NodeTuple> s = map(v, Set.of("deployment", "replicas"), "scale.");
                long replicas = integer(require(s, "replicas", v));
                if (replicas < 0) {
                    throw error(s.get("replicas").getValueNode(), "replicas must not be negative");
                }
                yield new Scenario.Scale(deployment(require(s, "deployment", v)), (int) replicas);
            }
            case "delete" -> new Scenario.Delete(deployment(require(map(v, Set.of("deployment"), "delete."), "deployment", v)));
            case "interrupt" -> interrupt(v);
            case "awsEvent" -> {
                Map<String, NodeTuple> inst = f.containsKey("instance")
                        ? map(f.get("instance").getValueNode(), Set.of("nodePool", "index"), "instance.") : Map.of();
                yield new Scenario.AwsEvent(existing(v), optString(inst, "nodePool"), (int) optInt(inst, "index", 0));
            }
            case "deleteNode" -> {
                Map<String, NodeTuple> d = map(v, Set.of("nodePool", "index"), "deleteNode.");
                yield new Scenario.DeleteNode(optString(d, "nodePool"), (int) optInt(d, "index", 0));
            }
            case "terminateAllNodes" -> {
                if (!bool(v)) {
                    throw error(v, "terminateAllNodes takes true");
                }
                yield new Scenario.TerminateAllNodes();
            }
            default -> fault(v);
        };
        return new Scenario.Event(at, action, n.getStartMark().map(m -> m.getLine() + 1).orElse(1));
    }

    private Scenario.Action interrupt(Node v) {
        Map<String, NodeTuple> m = map(v, Set.of("kind", "capacityType", "zone", "nodePool", "count"), "interrupt.");
        String kind = m.containsKey("kind") ? string(m.get("kind").getValueNode()) : "spot";
        if (!List.of("spot", "rebalance", "health", "failure").contains(kind)) {
            throw error(m.get("kind").getValueNode(), "kind must be spot, rebalance, health or failure, not '" + kind + "'");
        }
        return new Scenario.Interrupt(kind, optString(m, "capacityType"), optString(m, "zone"), optString(m, "nodePool"),
                (int) optInt(m, "count", 1));
    }

    private Scenario.Action fault(Node v) {
        Map<String, NodeTuple> m = map(v, Set.of("ice", "throttle", "outage", "apiServerDown", "crashAfterLaunch"), "fault.");
        if (m.size() != 1) {
            throw error(v, "a fault has one of ice, throttle, outage, apiServerDown, crashAfterLaunch");
        }
        Map.Entry<String, NodeTuple> e = m.entrySet().iterator().next();
        Node b = e.getValue().getValueNode();
        return switch (e.getKey()) {
            case "ice" -> {
                Map<String, NodeTuple> i = map(b, Set.of("instanceTypes", "zones", "capacityTypes", "for"), "ice.");
                yield new Scenario.Ice(optStrings(i, "instanceTypes"), optStrings(i, "zones"), optStrings(i, "capacityTypes"),
                        duration(require(i, "for", b)));
            }
            case "throttle" -> {
                Map<String, NodeTuple> t = map(b, Set.of("probability", "neighbour", "for"), "throttle.");
                if (t.containsKey("probability") == t.containsKey("neighbour")) {
                    throw error(b, "a throttle has one of probability (a share of calls refused) or neighbour (how many "
                            + "times each API's refill rate a noisy neighbour asks for)");
                }
                if (t.containsKey("neighbour")) {
                    double demand = Double.parseDouble(string(t.get("neighbour").getValueNode()));
                    if (demand < 0) {
                        throw error(t.get("neighbour").getValueNode(), "neighbour must not be negative");
                    }
                    yield new Scenario.NoisyNeighbour(demand, duration(require(t, "for", b)));
                }
                double p = Double.parseDouble(string(require(t, "probability", b)));
                if (p < 0 || p > 1) {
                    throw error(t.get("probability").getValueNode(), "probability must be between 0 and 1");
                }
                yield new Scenario.Throttle(p, duration(require(t, "for", b)));
            }
            case "outage" -> new Scenario.Ec2Outage(duration(require(map(b, Set.of("for"), "outage."), "for", b)));
            case "apiServerDown" -> new Scenario.ApiServerDown(duration(require(map(b, Set.of("for"), "apiServerDown."), "for", b)));
            default -> new Scenario.CrashAfterLaunch((int) optInt(map(b, Set.of("count"), "crashAfterLaunch."), "count", 1));
        };
    }

    // --- typed access with line numbers ---

    private Map<String, NodeTuple> map(Node n, Set<String> allowed, String where) {
        if (!(n instanceof MappingNode m)) {
            throw error(n, "expected a mapping" + (where.isEmpty() ? "" : " for " + where.substring(0, where.length() - 1)));
        }
        Map<String, NodeTuple> out = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            String key = string(t.getKeyNode());
            if (!allowed.contains(key)) {
                throw error(t.getKeyNode(), "unknown field '" + where + key + "' (expected one of " + new java.util.TreeSet<>(allowed) + ")");
            }
            out.put(key, t);
        }
        return out;
    }

    private Node require(Map<String, NodeTuple> m, String key, Node parent) {
        NodeTuple t = m.get(key);
        if (t == null) {
            throw error(parent, "required field '" + key + "' is missing");
        }
        return t.getValueNode();
    }

    private List<Node> seq(Node n) {
        if (!(n instanceof SequenceNode s)) {
            throw error(n, "expected a list");
        }
        return s.getValue();
    }

    private String string(Node n) {
        if (!(n instanceof ScalarNode s)) {
            throw error(n, "expected a value");
        }
        return s.getValue();
    }

    private List<String> strings(Node n) {
        return seq(n).stream().map(this::string).toList();
    }

    private long integer(Node n) {
        try {
            return Long.parseLong(string(n));
        } catch (NumberFormatException e) {
            throw error(n, "expected an integer, got '" + string(n) + "'");
        }
    }

    private boolean bool(Node n) {
        String s = string(n);
        if (!s.equals("true") && !s.equals("false")) {
            throw error(n, "expected true or false, got '" + s + "'");
        }
        return s.equals("true");
    }

    private Duration duration(Node n) {
        try {
            return KubeDuration.parse(string(n));
        } catch (IllegalArgumentException e) {
            throw error(n, "'" + string(n) + "' is not a duration (like 90s, 10m, 2h)");
        }
    }

    private String deployment(Node n) {
        String s = string(n);
        if (!s.matches("[a-z0-9][-a-z0-9.]*/[a-z0-9][-a-z0-9.]*")) {
            throw error(n, "a deployment is written namespace/name, got '" + s + "'");
        }
        return s;
    }

    private Path existing(Node n) {
        Path p = dir.resolve(string(n)).normalize();
        if (!Files.isRegularFile(p)) {
            throw error(n, "no such file: " + string(n) + " (resolved to " + p + ")");
        }
        return p;
    }

    private List<Path> paths(Node n) {
        List<Node> items = n instanceof SequenceNode s ? s.getValue() : List.of(n);
        return items.stream().map(this::existing).toList();
    }

    private String optString(Map<String, NodeTuple> m, String k) {
        return m.containsKey(k) ? string(m.get(k).getValueNode()) : null;
    }

    private long optInt(Map<String, NodeTuple> m, String k, long def) {
        return m.containsKey(k) ? integer(m.get(k).getValueNode()) : def;
    }

    private List<String> optStrings(Map<String, NodeTuple> m, String k) {
        return m.containsKey(k) ? strings(m.get(k).getValueNode()) : List.of();
    }

    private ScenarioException error(Node n, String message) {
        return new ScenarioException(file, n.getStartMark().map(m -> m.getLine() + 1).orElse(1), message);
    }
}
