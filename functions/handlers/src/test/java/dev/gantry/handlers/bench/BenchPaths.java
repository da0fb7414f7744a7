package dev.gantry.handlers.bench;

import java.nio.file.Path;

/** Where the benchmarks find the deployment jars and the test classes their children run. */
final class BenchPaths {
    private BenchPaths() {
    }

    /** {@code gantry.dist}, or the build directory's {@code dist} beside the test classes. */
    static Path dist() {
        String dir = System.getProperty("gantry.dist");
        return dir != null ? Path.of(dir) : testClasses().getParent().resolve("dist");
    }

    /** The directory (or jar) this module's test classes were loaded from. */
    static Path testClasses() {
        try {
            return Path.of(BenchPaths.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
