package dev.gantry.cli.validate;

import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Chooses the built-in catalogue for each NodePool. Without {@code --region}, a pool whose zone requirement names
 * zones of one region is checked in that region and those zones (seed 002's pool is pinned to ap-northeast-2),
 * else in us-east-1. Catalogues are built once per region and zone list.
 */
public final class CatalogSource {
    static final String DEFAULT_REGION = "us-east-1";

    private final String region;
    private final List<String> zoneArgs;
    private final Map<String, InstanceTypeProvider> cache = new HashMap<>();

    /** {@code region} null to infer it per pool; {@code zoneArgs} letters ({@code a}) or full names, null for a, b, c. */
    public CatalogSource(String region, List<String> zoneArgs) {
        this.region = region;
        this.zoneArgs = zoneArgs;
    }

    /** The catalogue for a pool: the explicit region, else the one its zone requirement implies. */
    public InstanceTypeProvider forPool(NodePool pool) {
        String r = region;
        List<String> zones = null;
        if (r == null) {
            ValueSet z = pool.requirements().get(WellKnownLabels.ZONE);
            TreeSet<String> regions = new TreeSet<>();
            if (!z.complement()) {
                z.values().forEach(v -> regions.add(v.replaceAll("[a-z]$", "")));
            }
            r = regions.size() == 1 ? regions.first() : DEFAULT_REGION;
            if (regions.size() == 1 && (zoneArgs == null || zoneArgs.isEmpty())) {
                zones = List.copyOf(z.values());
            }
        }
        String chosen = r;
        List<String> zs = zones != null ? zones : zones(r, zoneArgs);
        return cache.computeIfAbsent(chosen + " " + zs, k -> BuiltInCatalog.load(chosen, zs));
    }

    /** Zone letters become names in the region ({@code a} → {@code us-east-1a}); full names pass through. */
    static List<String> zones(String region, List<String> args) {
        if (args == null || args.isEmpty()) {
            return List.of(region + "a", region + "b", region + "c");
        }
        List<String> out = new ArrayList<>();
        for (String z : args) {
            String t = z.trim();
            out.add(t.length() <= 2 ? region + t : t);
        }
        return out;
    }
}
