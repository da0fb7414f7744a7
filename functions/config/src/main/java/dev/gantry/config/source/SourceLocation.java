package dev.gantry.config.source;

/** Where something was written: a file and a 1-based line and column. */
public record SourceLocation(String path, int line, int column) {
    @Override
    public String toString() {
        return path + ":" + line + ":" + column;
    }
}
