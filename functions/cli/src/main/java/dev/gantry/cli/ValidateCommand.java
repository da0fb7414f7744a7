package dev.gantry.cli;

import dev.gantry.cli.validate.CatalogSource;
import dev.gantry.cli.validate.InputFiles;
import dev.gantry.cli.validate.ValidationReport;
import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.config.validate.CatalogCheck;
import dev.gantry.config.validate.ZoneCheck;
import dev.gantry.core.catalog.Catalog;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code gantry validate}: loads Karpenter configuration and manifests, checks every NodePool against the instance
 * catalogue, and prints one line per object and how many objects and files were read (exit 0), or one line per
 * problem (exit 2). Warnings go to stderr. Reading no object at all (an empty file, a directory without YAML) is exit 2:
 * nothing found is not success.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Check NodePool, EC2NodeClass, NodeClass, Provisioner and AWSNodeTemplate YAML (and workload "
                + "manifests) and show which instance types each NodePool allows.")
public final class ValidateCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "FILE|DIR", description = "YAML files, or directories of *.yaml/*.yml")
    List<Path> paths = List.of();

    @Option(names = "--catalogue", description = "Describe the built-in instance catalogue for the region: how many "
            + "types it offers and which it leaves out (no vCPU, memory or architecture in the data).")
    boolean catalogue;

    @Option(names = "--strict", description = "A nodeClassRef must name a NodeClass in the input.")
    boolean strict;

    @Option(names = "--region", description = "Region for the catalogue. Default: the region of the zones a NodePool "
            + "requires, else us-east-1.")
    String region;

    @Option(names = "--zones", split = ",", description = "Zones, as letters (a,b,c) or full names; default: a, b and c of the region.")
    List<String> zones;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (catalogue) {
            describeCatalogue(out, err);
            if (paths.isEmpty()) {
                return 0;
            }
        } else if (paths.isEmpty()) {
            err.println("gantry validate: give at least one FILE or DIR (or --catalogue)");
            return 2;
        }
        CatalogSource catalogs = new CatalogSource(region, zones).check(err::println);
        LoadResult result = ConfigLoader.load(paths, new LoadOptions(strict));
        List<CatalogCheck.PoolCheck> checks = List.of();
        List<dev.gantry.config.source.Diagnostic> zoneErrors = result.ok() ? ZoneCheck.check(result, region) : List.of();
        if (result.ok() && zoneErrors.isEmpty() && !result.nodePools().isEmpty()) {
            checks = CatalogCheck.perPool(catalogs::forPool).check(result);
        }
        var overlays = result.ok() ? dev.gantry.config.validate.OverlayCheck.check(result, catalogs::forPool) : null;
        if (overlays != null && !overlays.errors().isEmpty()) {
            zoneErrors = java.util.stream.Stream.concat(zoneErrors.stream(), overlays.errors().stream()).toList();
        }
        ValidationReport report = new ValidationReport(result, checks, zoneErrors);
        report.warnings().forEach(w -> err.println("warning: " + w));
        if (overlays != null) {
            overlays.warnings().forEach(w -> err.println("warning: " + w));
        }
        if (result.ok()) {
            dev.gantry.config.validate.RootVolumeCheck.check(result, checks).forEach(w -> err.println("warning: " + w));
        }
        if (!report.errors().isEmpty()) {
            report.errors().forEach(e -> err.println(e));
            err.flush();
            return 2;
        }
        report.objectLines().forEach(out::println);
        int files = InputFiles.count(paths);
        String read = ValidationReport.counted(result.objects().size(), files);
        out.println(read);
        out.flush();
        if (result.objects().isEmpty()) {
            // Nothing found is not success: a CI step pointed at the wrong directory must fail, not pass vacuously.
            err.println("gantry validate: nothing to validate: " + read + " (" + InputFiles.describe(paths) + ")");
            err.flush();
            return 2;
        }
        err.flush();
        return 0;
    }

    private void describeCatalogue(PrintWriter out, PrintWriter err) {
        String r = region == null ? "us-east-1" : region;
        new CatalogSource(r, zones).check(err::println);
        Catalog c = BuiltInCatalog.load(r, zones == null || zones.isEmpty() ? BuiltInCatalog.defaultZones(r)
                : zones.stream().map(z -> z.trim().length() <= 2 ? r + z.trim() : z.trim()).toList());
        c.warnings().forEach(w -> err.println("warning: " + w));
        out.println("catalogue " + r + ": " + c.specs().size() + " instance types, " + c.excludedCount()
                + " excluded for lack of vCPU, memory or architecture data: " + String.join(", ", c.excludedNames()));
        List<String> retired = BuiltInCatalog.retiredNames();
        out.println("retired by AWS (not on Karpenter v1.14's instance-types page), left out: " + retired.size() + ": "
                + String.join(", ", retired));
    }
}
