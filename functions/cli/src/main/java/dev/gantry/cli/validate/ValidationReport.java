package dev.gantry.cli.validate;

import dev.gantry.config.source.Diagnostic;
import dev.gantry.config.LoadResult;
import dev.gantry.config.LoadedObject;
import dev.gantry.config.validate.CatalogCheck;
import dev.gantry.core.catalog.InstanceType;
import java.util.ArrayList;
import java.util.List;

/** What {@code gantry validate} prints: load and catalogue diagnostics, and one line per object. */
public record ValidationReport(LoadResult result, List<CatalogCheck.PoolCheck> checks, List<Diagnostic> zoneErrors) {
    public ValidationReport(LoadResult result, List<CatalogCheck.PoolCheck> checks) {
        this(result, checks, List.of());
    }

    /** How many allowed instance type names a NodePool line shows. */
    static final int SHOWN_TYPES = 5;

    public List<Diagnostic> errors() {
        List<Diagnostic> out = new ArrayList<>(result.errors());
        out.addAll(zoneErrors);
        checks.stream().filter(c -> c.error() != null).forEach(c -> out.add(c.error()));
        return out;
    }

    public List<Diagnostic> warnings() {
        return result.warnings();
    }

    /** {@code Kind/name [converted from X] [: N instance types (a, b, …)]}, in input order. */
    public List<String> objectLines() {
        List<String> out = new ArrayList<>();
        for (LoadedObject o : result.objects()) {
            StringBuilder b = new StringBuilder(o.kind()).append('/').append(o.name());
            b.append(o.convertedFrom() == null ? " (" + o.apiVersion() + ")" : " (converted from " + o.convertedFrom() + ")");
            if (o.kind().equals("NodePool")) {
                checks.stream().filter(c -> c.nodePool().equals(o.name())).findFirst().ifPresent(c -> b.append(": ").append(types(c.allowed())));
            }
            if (o.kind().equals("CapacityBuffer")) {
                result.buffers().stream().filter(x -> x.name().equals(o.name())).findFirst()
                        .ifPresent(x -> b.append(": ").append(x.summary()));
            }
            long pods = result.pods().stream().filter(p -> o.name().equals(p.ownerName()) && o.kind().equals(ownerKindOf(p.ownerKind()))).count();
            if (pods > 0) {
                b.append(": ").append(pods).append(pods == 1 ? " pod" : " pods");
            }
            out.add(b.toString());
        }
        return out;
    }

    /** {@code 3 objects in 2 files}, {@code 0 objects in 0 files}. */
    public static String counted(int objects, int files) {
        return objects + (objects == 1 ? " object" : " objects") + " in " + files + (files == 1 ? " file" : " files");
    }

    private static String ownerKindOf(String podOwnerKind) {
        return "ReplicaSet".equals(podOwnerKind) ? "Deployment" : podOwnerKind;
    }

    private static String types(List<InstanceType> allowed) {
        List<String> names = allowed.stream().map(InstanceType::name).sorted().toList();
        String shown = String.join(", ", names.subList(0, Math.min(SHOWN_TYPES, names.size())));
        return names.size() + " instance type" + (names.size() == 1 ? "" : "s") + " (" + shown
                + (names.size() > SHOWN_TYPES ? ", …" : "") + ")";
    }
}
