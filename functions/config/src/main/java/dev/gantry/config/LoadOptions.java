package dev.gantry.config;

/**
 * How strictly configuration is loaded.
 *
 * @param strict a NodePool's {@code nodeClassRef} must name a NodeClass that is in the input (an error otherwise;
 *               without strict it is a warning, since the NodeClass may already be in the cluster)
 */
public record LoadOptions(boolean strict) {
    public static final LoadOptions DEFAULT = new LoadOptions(false);
    public static final LoadOptions STRICT = new LoadOptions(true);
}
