package dev.gantry.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository's {@code events/} samples (see events/README.md), found by walking up from the working directory so
 * that tests in any module can load them.
 */
public final class Events {
    private Events() {}

    /** The repository's events folder. @throws IllegalStateException if no {@code events/README.md} is above cwd */
    public static Path root() {
        return RepoFiles.findUp("events/README.md").map(Path::getParent).orElseThrow(() ->
                new IllegalStateException("no events/ folder above " + Path.of("").toAbsolutePath()));
    }

    /** A sample's text, by path under events/, such as {@code "webhook/pod-create.json"}. */
    public static String load(String relativePath) {
        Path file = root().resolve(relativePath);
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read event sample " + file, e);
        }
    }
}
