package dev.gantry.infra;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.source.Diagnostic;
import java.util.List;

/** The validators the app can use. */
public final class ConfigValidators {
    private ConfigValidators() {
    }

    /**
     * The validator {@code cdk synth} runs: gantry-config's loader, strict, because Gantry reads NodeClasses only
     * from this bundle (there are no Karpenter CRDs in the cluster), so a NodePool whose NodeClass is not in the
     * input could never launch anything.
     */
    public static ConfigValidator standard() {
        return files -> ConfigLoader.load(files, LoadOptions.STRICT).errors().stream()
                .map(Diagnostic::toString).toList();
    }

    /** Accepts everything; for tests that are about something else. */
    public static ConfigValidator none() {
        return files -> List.of();
    }
}
