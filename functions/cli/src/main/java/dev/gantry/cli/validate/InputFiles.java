package dev.gantry.cli.validate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The files the config loader reads for a list of paths (as it expands them), counted for "N objects in M files". */
public final class InputFiles {
    private InputFiles() {
    }

    /** Files named directly, plus {@code *.yaml}/{@code *.yml} under directories; a missing path counts none. */
    public static int count(List<Path> paths) {
        int n = 0;
        for (Path p : paths) {
            if (Files.isRegularFile(p)) {
                n++;
            } else if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.walk(p)) {
                    n += (int) s.filter(Files::isRegularFile).filter(f -> f.getFileName().toString().endsWith(".yaml")
                            || f.getFileName().toString().endsWith(".yml")).count();
                } catch (IOException | UncheckedIOException e) {
                    // the loader reports an unreadable directory as an error of its own
                }
            }
        }
        return n;
    }

    /** The paths as the user gave them, for a message. */
    public static String describe(List<Path> paths) {
        return String.join(", ", paths.stream().map(Path::toString).toList());
    }
}
