package dev.gantry.simulator.scenario;

import dev.gantry.config.deployment.ConsolidationVariables;
import dev.gantry.simulator.deployed.EventSources;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.headroom.DemandHistory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Reads a scenario file, keeping line numbers: every problem is a {@link ScenarioException} naming the line (unknown
 * fields, wrong types, an event with no action or two, a referenced file that does not exist). This class reads the
 * top level, the cluster, the run's timing ({@code start}, {@code ramp}, {@code learnWeeks}) and
 * {@code consolidation:}; one reader per section does the rest: {@link EventsReader} ({@code events:}),
 * {@link FaultsReader} ({@code faults:}: rates per port call, lags, outages, targeted faults, the chaos mix) and
 * {@link LatencyReader} ({@code latency:}). Sections are read in a fixed order, so a file with two mistakes always
 * reports the same one first.
 */
public final class ScenarioReader {
    private static final Set<String> TOP = Set.of("name", "region", "zones", "duration", "seed", "config", "cluster", "webhook", "events",
            "start", "ramp", "learnWeeks", "consolidation",
            "faults", "latency");

    private final ScenarioNodes yaml;
    private final String file;

    private ScenarioReader(Path path) {
        this.yaml = new ScenarioNodes(path);
        this.file = yaml.file();
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
        Node root = compose(text);
        Map<String, NodeTuple> top = yaml.map(root, TOP, "");
        String name = yaml.string(yaml.require(top, "name", root));
        String region = top.containsKey("region") ? yaml.string(top.get("region").getValueNode()) : "us-east-1";
        List<String> zones = top.containsKey("zones") ? yaml.strings(top.get("zones").getValueNode())
                : List.of(region + "a", region + "b", region + "c");
        Duration duration = yaml.duration(yaml.require(top, "duration", root));
        long seed = top.containsKey("seed") ? yaml.integer(top.get("seed").getValueNode()) : 1;
        List<Path> config = yaml.paths(yaml.require(top, "config", root));
        List<Path> manifests = List.of();
        List<KarpenterNodes> karpenter = List.of();
        List<dev.gantry.simulator.world.aws.SimulatedReservations.Spec> reservations = List.of();
        if (top.containsKey("cluster")) {
            Map<String, NodeTuple> cluster = yaml.map(top.get("cluster").getValueNode(), Set.of("manifests", "karpenter",
                    "reservations"), "cluster.");
            manifests = cluster.containsKey("manifests") ? yaml.paths(cluster.get("manifests").getValueNode()) : List.of();
            karpenter = cluster.containsKey("karpenter")
                    ? new KarpenterNodesReader(yaml).read(cluster.get("karpenter").getValueNode(), zones) : List.of();
            reservations = cluster.containsKey("reservations")
                    ? new ReservationsReader(yaml).read(cluster.get("reservations").getValueNode(), zones) : List.of();
        }
        boolean webhook = !top.containsKey("webhook") || yaml.bool(top.get("webhook").getValueNode());
        List<Scenario.Event> events = new ArrayList<>();
        if (top.containsKey("events")) {
            EventsReader reader = new EventsReader(yaml);
            for (Node e : yaml.seq(top.get("events").getValueNode())) {
                events.add(reader.event(e, duration));
            }
        }
        for (Scenario.Event e : events) { // an interruption names a declared interruptible reservation
            if (e.action() instanceof Scenario.ReservationInterruption ri && reservations.stream()
                    .noneMatch(r -> r.id().equals(ri.reservation()) && r.interruptible())) {
                throw new ScenarioException(file, e.line(), "reservationInterruption: '" + ri.reservation()
                        + "' is not an interruptible reservation of cluster.reservations");
            }
        }
        ConsolidationSettings consolidation = top.containsKey("consolidation")
                ? consolidation(top.get("consolidation").getValueNode()) : EventSources.DEPLOYED.consolidation();
        Scenario.FaultSpec faults = top.containsKey("faults") ? new FaultsReader(yaml).read(top.get("faults").getValueNode())
                : Scenario.FaultSpec.NONE;
        Scenario.LatencySpec latency = top.containsKey("latency") ? new LatencyReader(yaml).read(top.get("latency").getValueNode())
                : Scenario.LatencySpec.AWS;
        Scenario.Run run = run(top, duration, seed);
        return new Scenario(path, name, new Scenario.Cluster(region, zones, manifests, karpenter, reservations), run,
                new Scenario.Gantry(config, webhook, consolidation, true), events, faults, latency);
    }

    private Node compose(String text) {
        try {
            return new Compose(LoadSettings.builder().setLabel(file).setSchema(new CoreSchema()).build())
                    .composeString(text).orElseThrow(() -> new ScenarioException(file, 1, "the scenario is empty"));
        } catch (MarkedYamlEngineException e) {
            int line = e.getProblemMark().map(m -> m.getLine() + 1).orElse(1);
            throw new ScenarioException(file, line, "not YAML: " + String.valueOf(e.getProblem()).replaceAll("\\s+", " ").trim());
        } catch (YamlEngineException e) {
            throw new ScenarioException(file, 1, "not YAML: " + e.getMessage());
        }
    }

    /**
     * {@code consolidation: {spotToSpot, strategy}}, each defaulting to the deployed setting (DeploymentSettings, as
     * the CDK app deploys them).
     */
    private ConsolidationSettings consolidation(Node c) {
        ConsolidationSettings deployed = EventSources.DEPLOYED.consolidation();
        Map<String, NodeTuple> m = yaml.map(c, Set.of("spotToSpot", "strategy"), "consolidation.");
        boolean spotToSpot = m.containsKey("spotToSpot") ? yaml.bool(m.get("spotToSpot").getValueNode()) : deployed.spotToSpot();
        ConsolidationSettings.Strategy strategy = deployed.strategy();
        if (m.containsKey("strategy")) {
            Node s = m.get("strategy").getValueNode();
            String v = yaml.string(s);
            if (!v.equals("gantry") && !v.equals("karpenter")) {
                throw yaml.error(s, "consolidation.strategy: is gantry or karpenter, not '" + v + "'");
            }
            strategy = ConsolidationVariables.strategy(v);
        }
        return new ConsolidationSettings(spotToSpot, strategy);
    }

    /** The run: its duration and seed, {@code start} (an RFC 3339 UTC instant), {@code ramp: {from, until}} and {@code learnWeeks}. */
    private Scenario.Run run(Map<String, NodeTuple> top, Duration total, long seed) {
        Instant start = null;
        if (top.containsKey("start")) {
            Node v = top.get("start").getValueNode();
            try {
                start = Instant.parse(yaml.string(v));
            } catch (DateTimeParseException e) {
                throw yaml.error(v, "start must be a UTC instant such as 2025-06-02T00:00:00Z, not '" + yaml.string(v) + "'");
            }
        }
        Scenario.Window ramp = null;
        if (top.containsKey("ramp")) {
            Node v = top.get("ramp").getValueNode();
            Map<String, NodeTuple> r = yaml.map(v, Set.of("from", "until"), "ramp.");
            Duration from = yaml.duration(yaml.require(r, "from", v));
            Duration until = yaml.duration(yaml.require(r, "until", v));
            if (until.compareTo(from) <= 0 || until.compareTo(total) > 0) {
                throw yaml.error(v, "ramp must satisfy from < until <= duration");
            }
            ramp = new Scenario.Window(from, until);
        }
        int weeks = 0;
        if (top.containsKey("learnWeeks")) {
            Node v = top.get("learnWeeks").getValueNode();
            long w = yaml.integer(v);
            if (w < 0 || w > DemandHistory.WEEKS) {
                throw yaml.error(v, "learnWeeks must be 0 to " + DemandHistory.WEEKS);
            }
            weeks = (int) w;
        }
        return new Scenario.Run(total, seed, start, ramp, weeks);
    }
}
