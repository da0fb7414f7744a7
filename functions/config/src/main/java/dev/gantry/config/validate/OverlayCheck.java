package dev.gantry.config.validate;

import dev.gantry.config.LoadResult;
import dev.gantry.config.LoadedObject;
import dev.gantry.config.source.Diagnostic;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.catalog.overlay.NodeOverlay;
import dev.gantry.core.catalog.overlay.OverlayResolution;
import dev.gantry.core.catalog.overlay.PreviewShapes;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code gantry validate}'s check of NodeOverlays against the catalogue, the part the reader cannot do alone: an
 * overlay in conflict with another of the same weight ({@link OverlayResolution}) is an error at the overlay, as
 * Karpenter sets its {@code ValidationSucceeded=False} and applies it nowhere; a preview type the catalogue lacks is a
 * warning, since offline no shape can be read for it and the overlay enables nothing.
 */
public final class OverlayCheck {
    private OverlayCheck() {
    }

    /** The errors and warnings of the result's overlays over each pool's catalogue. */
    public record Findings(List<Diagnostic> errors, List<Diagnostic> warnings) {
    }

    public static Findings check(LoadResult result, Function<NodePool, InstanceTypeProvider> providers) {
        if (result.overlays().isEmpty()) {
            return new Findings(List.of(), List.of());
        }
        Map<NodePool, OverlayResolution.PoolTypes> pools = new LinkedHashMap<>();
        Set<String> known = new HashSet<>();
        for (NodePool p : result.nodePools()) {
            NodeClass nc = CatalogCheck.nodeClassOf(p, result);
            List<InstanceType> types = providers.apply(p).instanceTypes(nc);
            types.forEach(t -> known.add(t.name()));
            pools.put(p, new OverlayResolution.PoolTypes(nc, types));
        }
        OverlayResolution r = OverlayResolution.resolve(result.overlays(), pools, PreviewShapes.NONE);
        List<Diagnostic> errors = new ArrayList<>();
        List<Diagnostic> warnings = new ArrayList<>();
        for (NodeOverlay o : result.overlays()) {
            LoadedObject at = result.object("NodeOverlay", o.name());
            String why = r.invalid().get(o.name());
            if (why != null) {
                errors.add(diagnostic(at, o, "spec", "not applied: " + why));
            }
            for (String t : o.previewTypes()) {
                if (!known.contains(t)) {
                    warnings.add(diagnostic(at, o, "spec.requirements", "preview instance type " + t + " is not in the built-in "
                            + "catalogue: offline its shape is unknown and the overlay enables nothing"));
                }
            }
        }
        return new Findings(errors, warnings);
    }

    private static Diagnostic diagnostic(LoadedObject at, NodeOverlay o, String field, String message) {
        var loc = at == null ? null : at.fields().getOrDefault(field, at.location());
        return new Diagnostic(loc == null ? "" : loc.path(), loc == null ? 1 : loc.line(), loc == null ? 1 : loc.column(),
                "NodeOverlay/" + o.name(), field, message);
    }
}
