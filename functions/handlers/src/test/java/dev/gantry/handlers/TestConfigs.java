package dev.gantry.handlers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Config bundles the handler tests share, from this module's test resources. */
public final class TestConfigs {
    /** Two instance types (c5.large, m5.large), spot and on-demand, AL2023: {@code two-type-nodepool.yaml}. */
    public static final String TWO_TYPES = read("/two-type-nodepool.yaml");

    private TestConfigs() {
    }

    private static String read(String resource) {
        try (InputStream in = TestConfigs.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("test resource " + resource + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
