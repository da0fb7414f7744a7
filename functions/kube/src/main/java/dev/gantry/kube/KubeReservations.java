package dev.gantry.kube;

import dev.gantry.core.status.NodeClassStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An EC2NodeClass's {@code status.capacityReservations} in Karpenter's field names (aws
 * {@code pkg/apis/v1/ec2nodeclass_status.go}): availabilityZone, endTime (RFC 3339, absent for no end date), id,
 * instanceMatchCriteria, instanceType, ownerID, reservationType, interruptible, state.
 */
final class KubeReservations {
    private KubeReservations() {
    }

    /** Puts the list into {@code status} when there is one (Karpenter leaves the field out when none is selected). */
    static void write(NodeClassStatus status, Map<String, Object> out) {
        if (status.capacityReservations().isEmpty()) {
            return;
        }
        List<Map<String, Object>> list = new ArrayList<>();
        for (NodeClassStatus.Reservation r : status.capacityReservations()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("availabilityZone", r.availabilityZone());
            if (r.endTime() != null) {
                m.put("endTime", r.endTime().toString());
            }
            m.put("id", r.id());
            m.put("instanceMatchCriteria", r.instanceMatchCriteria());
            m.put("instanceType", r.instanceType());
            m.put("ownerID", r.ownerID());
            m.put("reservationType", r.reservationType());
            m.put("interruptible", r.interruptible());
            m.put("state", r.state());
            list.add(m);
        }
        out.put("capacityReservations", list);
    }

    static List<NodeClassStatus.Reservation> read(Map<String, Object> status) {
        List<NodeClassStatus.Reservation> out = new ArrayList<>();
        if (!(status.get("capacityReservations") instanceof List<?> items)) {
            return out;
        }
        for (Object o : items) {
            if (o instanceof Map<?, ?> m) {
                Object end = m.get("endTime");
                out.add(new NodeClassStatus.Reservation(str(m, "id"), str(m, "availabilityZone"), str(m, "instanceType"),
                        str(m, "ownerID"), str(m, "instanceMatchCriteria"),
                        m.get("reservationType") == null ? "default" : str(m, "reservationType"),
                        Boolean.TRUE.equals(m.get("interruptible")) || "true".equals(String.valueOf(m.get("interruptible"))),
                        end == null ? null : Instant.parse(String.valueOf(end)),
                        m.get("state") == null ? "active" : str(m, "state")));
            }
        }
        return out;
    }

    private static String str(Map<?, ?> m, String key) {
        Object v = m.get(key);
        return v == null ? null : String.valueOf(v);
    }
}
