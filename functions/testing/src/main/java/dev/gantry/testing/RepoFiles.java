package dev.gantry.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds files of this repository from a test's working directory. Surefire runs each module's tests with the module
 * directory as cwd, so walking up from there reaches the repository root from any module.
 */
final class RepoFiles {
    private RepoFiles() {}

    /** The first {@code dir/relative} that exists, walking up from the current directory; empty if none does. */
    static Optional<Path> findUp(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(relative);
            if (Files.exists(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
