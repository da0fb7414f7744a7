package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.YamlObject;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * EC2NodeClass fields that Gantry checks against the Karpenter v1.14 CRD but does not act on at launch yet. Each field
 * written gets one warning naming it, so a user knows the node will not have it. The rules of
 * {@code capacityReservationSelectorTerms} (honoured: {@link ReservationTerms}) are checked here too, with the other
 * fields Karpenter added since v1.11, for both NodeClass kinds, and so are those of {@code instanceStorePolicy},
 * {@code ipPrefixCount}, {@code connectionTracking}, {@code cpuOptions} and {@code placementGroupSelector} (honoured:
 * {@code NodeClass.instanceStorePolicy}, {@code networking}, {@code cpuOptions} and {@code placementGroup}).
 */
final class UnhonouredFields {
    /** EC2NodeClass fields accepted and checked, not honoured at launch, in the order they are reported. */
    static final List<String> EC2 = List.of("networkInterfaces");
    /** Karpenter's CRD caps these term lists at 30 and network interfaces at 150. */
    private static final int MAX_TERMS = 30;
    private static final int MAX_INTERFACES = 150;

    private UnhonouredFields() {
    }

    /** Checks the EC2NodeClass fields in {@link #EC2} that are written, and warns once for each. */
    static void ec2(YamlObject spec) {
        for (String f : EC2) {
            if (spec.has(f)) {
                spec.warn(f, "Gantry does not honour " + f + " yet; ignored at launch");
            }
        }
        String policy = spec.string("instanceStorePolicy");
        if (policy != null && !policy.equals("RAID0")) {
            spec.error("instanceStorePolicy", "must be RAID0, got '" + policy + "'");
        }
        capacityReservations(spec, "ownerID");
        networkInterfaces(spec);
        placementGroup(spec);
        connectionTracking(spec);
        Integer prefixes = spec.integer("ipPrefixCount");
        if (prefixes != null && prefixes < 0) {
            spec.error("ipPrefixCount", "must not be negative, got " + prefixes);
        }
        YamlObject cpu = spec.object("cpuOptions");
        if (cpu != null) {
            cpu.allow("nestedVirtualization");
            oneOf(cpu, "nestedVirtualization", "enabled", "disabled");
        }
    }

    /**
     * {@code capacityReservationSelectorTerms}: by {@code id} alone, or by {@code tags}, the owner account and (in an
     * EC2NodeClass) {@code instanceMatchCriteria}. EKS Auto Mode spells the owner {@code owner}, Karpenter {@code ownerID}.
     */
    static void capacityReservations(YamlObject spec, String ownerField) {
        List<YamlObject> terms = spec.objects("capacityReservationSelectorTerms");
        if (terms.size() > MAX_TERMS) {
            spec.error("capacityReservationSelectorTerms", "at most " + MAX_TERMS + " terms are allowed, got " + terms.size());
        }
        boolean ec2 = ownerField.equals("ownerID");
        for (YamlObject t : terms) {
            if (ec2) {
                t.allow("id", "ownerID", "tags", "instanceMatchCriteria");
            } else {
                t.allow("id", "owner", "tags");
            }
            String id = t.string("id");
            String owner = t.string(ownerField);
            Map<String, String> tags = t.stringMap("tags");
            String criteria = ec2 ? oneOf(t, "instanceMatchCriteria", "open", "targeted") : null;
            if (id == null && tags == null && criteria == null) {
                t.errorHere(null, "expected at least one of id, tags" + (ec2 ? ", instanceMatchCriteria" : ""));
            } else if (id != null && (tags != null || owner != null || criteria != null)) {
                t.error("id", "id cannot be combined with other fields in a term");
            }
            if (id != null && !id.matches("cr-[0-9a-z]+")) {
                t.error("id", "'" + id + "' is not a cr-… id");
            }
            if (owner != null && !owner.matches("[0-9]{12}")) {
                t.error(ownerField, "'" + owner + "' is not a 12-digit account id");
            }
            if (tags != null && tags.entrySet().stream().anyMatch(e -> e.getKey().isEmpty() || e.getValue() == null || e.getValue().isEmpty())) {
                t.error("tags", "empty tag keys or values aren't supported");
            }
        }
    }

    private static void networkInterfaces(YamlObject spec) {
        if (!spec.has("networkInterfaces")) {
            return;
        }
        List<YamlObject> items = spec.objects("networkInterfaces");
        if (items.size() > MAX_INTERFACES) {
            spec.error("networkInterfaces", "at most " + MAX_INTERFACES + " interfaces are allowed, got " + items.size());
        }
        boolean primary = items.isEmpty();
        Set<String> slots = new HashSet<>();
        Set<Integer> efaCards = new HashSet<>();
        for (YamlObject n : items) {
            n.allow("networkCardIndex", "deviceIndex", "interfaceType");
            boolean present = n.require("networkCardIndex") & n.require("deviceIndex") & n.require("interfaceType");
            Integer card = nonNegative(n, "networkCardIndex");
            Integer device = nonNegative(n, "deviceIndex");
            String type = oneOf(n, "interfaceType", "interface", "efa-only");
            primary |= Integer.valueOf(0).equals(card) && Integer.valueOf(0).equals(device) && "interface".equals(type);
            if (!present || card == null || device == null || type == null) {
                continue;
            }
            if (!slots.add(card + "/" + device)) {
                n.errorHere(null, "duplicate networkCardIndex " + card + " and deviceIndex " + device);
            }
            if (type.equals("efa-only") && !efaCards.add(card)) {
                n.error("interfaceType", "at most one efa-only interface per network card (card " + card + ")");
            }
        }
        if (!primary) {
            spec.error("networkInterfaces", "networkInterfaces must include a primary interface "
                    + "(networkCardIndex 0, deviceIndex 0, interfaceType interface)");
        }
    }

    private static void placementGroup(YamlObject spec) {
        YamlObject pg = spec.object("placementGroupSelector");
        if (pg == null) {
            return;
        }
        pg.allow("name", "id");
        String name = pg.string("name");
        String id = pg.string("id");
        if (name == null && id == null) {
            spec.error("placementGroupSelector", "expected one of name, id");
        } else if (name != null && id != null) {
            spec.error("placementGroupSelector", "'name' and 'id' are mutually exclusive");
        } else if (id != null && !id.matches("pg-[0-9a-z]+")) {
            pg.error("id", "'" + id + "' is not a pg-… id");
        } else if (name != null && name.isEmpty()) {
            pg.error("name", "name may not be empty");
        }
    }

    private static void connectionTracking(YamlObject spec) {
        YamlObject ct = spec.object("connectionTracking");
        if (ct == null) {
            return;
        }
        ct.allow("tcpEstablishedTimeout", "udpStreamTimeout", "udpTimeout");
        if (!ct.has("tcpEstablishedTimeout") && !ct.has("udpStreamTimeout") && !ct.has("udpTimeout")) {
            spec.error("connectionTracking", "at least one of tcpEstablishedTimeout, udpStreamTimeout, or udpTimeout must be set");
        }
        between(ct, "tcpEstablishedTimeout", 60, 432_000);
        between(ct, "udpStreamTimeout", 60, 180);
        between(ct, "udpTimeout", 30, 60);
    }

    private static void between(YamlObject o, String key, int min, int max) {
        Integer v = o.integer(key);
        if (v != null && (v < min || v > max)) {
            o.error(key, "must be between " + min + " and " + max + ", got " + v);
        }
    }

    private static Integer nonNegative(YamlObject o, String key) {
        Integer v = o.integer(key);
        if (v != null && v < 0) {
            o.error(key, "must not be negative, got " + v);
            return null;
        }
        return v;
    }

    private static String oneOf(YamlObject o, String key, String a, String b) {
        String v = o.string(key);
        if (v != null && !v.equals(a) && !v.equals(b)) {
            o.error(key, "must be " + a + " or " + b + ", got '" + v + "'");
            return null;
        }
        return v;
    }
}
