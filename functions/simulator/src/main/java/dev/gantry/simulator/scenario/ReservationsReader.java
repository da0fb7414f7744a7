package dev.gantry.simulator.scenario;

import dev.gantry.core.reservation.CapacityReservation;
import dev.gantry.simulator.world.aws.SimulatedReservations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/**
 * Reads {@code cluster: {reservations: [...]}}: the account's capacity reservations when the run starts
 * ({@link SimulatedReservations}). Each item is {@code {id, instanceType, zone, count, type, interruptible, endsAfter,
 * owner, matchCriteria, tags}}: {@code id} (EC2's form, {@code cr-} and 8 to 17 hex digits, unique), {@code instanceType}
 * and {@code count} (at least 1) are required; {@code zone} defaults to the scenario's first; {@code type} is
 * {@code default} (an ODCR, the default) or {@code capacity-block}, which needs {@code endsAfter} (its end, after the
 * start); {@code interruptible} an ODCR only; {@code owner} defaults to the account, {@code matchCriteria} to
 * {@code targeted}.
 */
final class ReservationsReader {
    private static final Set<String> FIELDS = Set.of("id", "instanceType", "zone", "count", "type", "interruptible",
            "endsAfter", "owner", "matchCriteria", "tags");
    private final ScenarioNodes yaml;

    ReservationsReader(ScenarioNodes yaml) {
        this.yaml = yaml;
    }

    List<SimulatedReservations.Spec> read(Node list, List<String> zones) {
        List<SimulatedReservations.Spec> out = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Node item : yaml.seq(list)) {
            Map<String, NodeTuple> m = yaml.map(item, FIELDS, "cluster.reservations.");
            Node idNode = yaml.require(m, "id", item);
            String id = yaml.string(idNode);
            if (!id.matches("cr-[0-9a-f]{8,17}")) {
                throw yaml.error(idNode, "cluster.reservations.id: '" + id + "' is not a capacity reservation id (cr- and 8 to 17 hex digits)");
            }
            if (!ids.add(id)) {
                throw yaml.error(idNode, "cluster.reservations.id: '" + id + "' is declared twice");
            }
            String zone = m.containsKey("zone") ? yaml.string(m.get("zone").getValueNode()) : zones.getFirst();
            if (!zones.contains(zone)) {
                throw yaml.error(m.get("zone").getValueNode(), "cluster.reservations.zone: '" + zone
                        + "' is not one of the scenario's zones " + zones);
            }
            String type = m.containsKey("type") ? yaml.string(m.get("type").getValueNode()) : CapacityReservation.TYPE_DEFAULT;
            if (!type.equals(CapacityReservation.TYPE_DEFAULT) && !type.equals(CapacityReservation.TYPE_CAPACITY_BLOCK)) {
                throw yaml.error(m.get("type").getValueNode(), "cluster.reservations.type: is default or capacity-block, not '"
                        + type + "'");
            }
            Duration endsAfter = m.containsKey("endsAfter") ? yaml.duration(m.get("endsAfter").getValueNode()) : null;
            if (endsAfter != null && !endsAfter.isPositive()) {
                throw yaml.error(m.get("endsAfter").getValueNode(), "cluster.reservations.endsAfter: must be after the start");
            }
            if (type.equals(CapacityReservation.TYPE_CAPACITY_BLOCK) && endsAfter == null) {
                throw yaml.error(item, "cluster.reservations: a capacity-block needs endsAfter (when it ends)");
            }
            boolean interruptible = m.containsKey("interruptible") && yaml.bool(m.get("interruptible").getValueNode());
            if (interruptible && type.equals(CapacityReservation.TYPE_CAPACITY_BLOCK)) {
                throw yaml.error(m.get("interruptible").getValueNode(), "cluster.reservations.interruptible: a capacity-block "
                        + "is never interruptible");
            }
            String criteria = yaml.optString(m, "matchCriteria");
            if (criteria != null && !criteria.equals("open") && !criteria.equals("targeted")) {
                throw yaml.error(m.get("matchCriteria").getValueNode(), "cluster.reservations.matchCriteria: is open or "
                        + "targeted, not '" + criteria + "'");
            }
            out.add(new SimulatedReservations.Spec(id, yaml.string(yaml.require(m, "instanceType", item)), zone,
                    (int) yaml.positive(yaml.require(m, "count", item)), type, interruptible, endsAfter,
                    yaml.optString(m, "owner"), criteria, tags(m)));
        }
        return out;
    }

    private Map<String, String> tags(Map<String, NodeTuple> m) {
        if (!m.containsKey("tags")) {
            return Map.of();
        }
        Node n = m.get("tags").getValueNode();
        Map<String, String> out = new LinkedHashMap<>();
        if (!(n instanceof org.snakeyaml.engine.v2.nodes.MappingNode map)) {
            throw yaml.error(n, "cluster.reservations.tags: is a map of tag keys to values");
        }
        for (NodeTuple t : map.getValue()) {
            out.put(yaml.string(t.getKeyNode()), yaml.string(t.getValueNode()));
        }
        return out;
    }
}
