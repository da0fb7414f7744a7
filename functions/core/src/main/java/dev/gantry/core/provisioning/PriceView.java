package dev.gantry.core.provisioning;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.catalog.overlay.OverlayResolution;
import dev.gantry.core.catalog.overlay.PreviewShapes;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Each pool's instance types as scheduling and consolidation price them: the provider's types with the configuration's
 * NodeOverlays applied ({@link OverlayResolution}). This is the only place overlays reach a decision; billing and
 * cost reporting read list prices elsewhere and never come through here.
 *
 * <p>The overlays are resolved (ordered, matched, checked for conflicts) once per configuration, at the first call,
 * against the provider's types then; prices and availability are read from the provider on every call, so live price
 * refreshes and unavailable offerings still show. A provider that also implements {@link PreviewShapes} (the live
 * one) supplies preview types' shapes; otherwise a preview type the catalogue lacks is not enabled. Thread-safe.
 */
public final class PriceView {
    private static final System.Logger LOG = System.getLogger(PriceView.class.getName());

    private final GantryConfig config;
    private final InstanceTypeProvider provider;
    private volatile OverlayResolution resolution;
    /** The last result per pool and the provider's list it was made from (providers cache their lists). */
    private final Map<String, Applied> applied = new java.util.concurrent.ConcurrentHashMap<>();

    private record Applied(List<InstanceType> source, List<InstanceType> result) {
    }

    public PriceView(GantryConfig config, InstanceTypeProvider provider) {
        this.config = config;
        this.provider = provider;
    }

    /** The pool's types under its NodeClass, overlays applied; empty without a NodeClass. */
    public List<InstanceType> types(NodePool pool) {
        Optional<NodeClass> nc = config.nodeClassOf(pool);
        if (nc.isEmpty()) {
            return List.of();
        }
        List<InstanceType> source = provider.instanceTypes(nc.get());
        OverlayResolution r = resolution();
        if (r.isEmpty()) {
            return source;
        }
        Applied hit = applied.get(pool.name());
        if (hit != null && hit.source() == source) {
            return hit.result();
        }
        List<InstanceType> result = r.apply(pool, source);
        applied.put(pool.name(), new Applied(source, result));
        return result;
    }

    /** The overlays resolved over this configuration (conflicts in {@link OverlayResolution#invalid()}). */
    public OverlayResolution resolution() {
        OverlayResolution r = resolution;
        if (r == null) {
            r = resolve(config, provider);
            resolution = r;
        }
        return r;
    }

    /** The overlays of {@code config} resolved over {@code provider}'s types (for {@code gantry validate} too). */
    public static OverlayResolution resolve(GantryConfig config, InstanceTypeProvider provider) {
        if (config.overlays().isEmpty()) {
            return OverlayResolution.NONE;
        }
        Map<NodePool, OverlayResolution.PoolTypes> pools = new LinkedHashMap<>();
        for (NodePool p : config.nodePools()) {
            config.nodeClassOf(p).ifPresent(nc -> pools.put(p, new OverlayResolution.PoolTypes(nc, provider.instanceTypes(nc))));
        }
        OverlayResolution r = OverlayResolution.resolve(config.overlays(), pools,
                provider instanceof PreviewShapes s ? s : PreviewShapes.NONE);
        r.invalid().forEach((name, why) -> LOG.log(System.Logger.Level.WARNING, "NodeOverlay/" + name + " not applied: " + why));
        return r;
    }
}
