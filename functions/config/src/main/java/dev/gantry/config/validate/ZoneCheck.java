package dev.gantry.config.validate;

import dev.gantry.config.source.Diagnostic;
import dev.gantry.config.LoadResult;
import dev.gantry.config.LoadedObject;
import dev.gantry.config.source.SourceLocation;
import dev.gantry.config.catalog.Regions;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The zones a NodePool names (a {@code topology.kubernetes.io/zone In} requirement, or a zone template label) checked
 * against the catalogue's regions: a zone that does not exist ({@code us-east-1z}), or one outside the region being
 * planned ({@code --region}), is an error at the requirement's values, as EC2 would refuse every launch there. A zone
 * of a region the catalogue does not know is left alone (nothing offline says it is wrong), and so is a Local Zone.
 */
public final class ZoneCheck {
    private ZoneCheck() {
    }

    /**
     * One diagnostic per NodePool zone that cannot exist.
     *
     * @param region the region being planned, or null when each pool's region comes from its zones
     */
    public static List<Diagnostic> check(LoadResult result, String region) {
        List<Diagnostic> out = new ArrayList<>();
        for (NodePool pool : result.nodePools()) {
            LoadedObject source = result.object("NodePool", pool.name());
            List<Requirement> reqs = pool.template().requirements();
            for (int i = 0; i < reqs.size(); i++) {
                Requirement r = reqs.get(i);
                if (r.key().equals(WellKnownLabels.ZONE) && r.operator() == Operator.In) {
                    for (String zone : r.values()) {
                        String problem = problem(region, zone);
                        if (problem != null) {
                            out.add(at(source, pool, requirementField(source, i) + ".values", problem));
                        }
                    }
                }
            }
            for (Map.Entry<String, String> e : pool.template().labels().entrySet()) {
                if (e.getKey().equals(WellKnownLabels.ZONE)) {
                    String problem = problem(region, e.getValue());
                    if (problem != null) {
                        out.add(at(source, pool, "spec.template.metadata.labels." + e.getKey(), problem));
                    }
                }
            }
        }
        return out;
    }

    /** Why {@code zone} cannot be launched into (in {@code region}, when given), or null. */
    public static String problem(String region, String zone) {
        String zoneRegion = Regions.regionOfZone(zone);
        if (region != null && !zoneRegion.equals(region)) {
            return "zone " + zone + " is not in region " + region;
        }
        Regions.RegionCheck rc = Regions.problemWithRegion(zoneRegion);
        if (!rc.ok() && !rc.warning()) {
            return "'" + zone + "' is not a zone of any AWS region";
        }
        return Regions.zoneProblem(zoneRegion, zone);
    }

    private static Diagnostic at(LoadedObject source, NodePool pool, String field, String message) {
        SourceLocation at = source == null ? new SourceLocation("<input>", 1, 1) : source.locationOf(field);
        String label = source == null ? "NodePool/" + pool.name() : source.label();
        return new Diagnostic(at.path(), at.line(), at.column(), label, field, message);
    }

    private static String requirementField(LoadedObject source, int i) {
        String v1 = "spec.template.spec.requirements[" + i + "]";
        if (source != null && !source.fields().containsKey(v1) && source.fields().containsKey("spec.requirements[" + i + "]")) {
            return "spec.requirements[" + i + "]";
        }
        return v1;
    }
}
