package dev.gantry.infra;

import dev.gantry.config.deployment.FunctionSettings;
import java.util.Map;
import java.util.Objects;

/**
 * One Gantry function: its size and limits from the {@link dev.gantry.config.deployment.DeploymentSettings}, which
 * handler, the variables it gets on top of the shared ones, and how its JVM compiles.
 *
 * @param settings    name, memory, timeout and reserved concurrency; the jar is {@code <assetsDir>/<name>.jar}
 * @param handler     {@code class::method}
 * @param environment variables on top of the shared ones
 * @param jit         the JIT tiers, set through {@code JAVA_TOOL_OPTIONS}
 */
public record FunctionSpec(FunctionSettings settings, String handler, Map<String, String> environment, Jit jit) {
    /**
     * How far the JVM compiles. Lambda's Java 25 runtime stops at C1 by default but, with SnapStart, leaves the JVM's
     * own full tiers on, since its primed snapshot holds compiled code (AWS Lambda developer guide, "Customize Java
     * runtime startup behavior"). Gantry sets one or the other on every function, explicitly.
     */
    public enum Jit {
        /** C1 only: the short handlers, whose runs are too brief for C2 to pay back. */
        C1_ONLY("-XX:+TieredCompilation -XX:TieredStopAtLevel=1"),
        /**
         * C1, then C2 for the hot code: the sweep, whose run at scale is seconds of CPU-bound decoding and deciding. At
         * 5,000 nodes and 100,000 pods on the CPU share of 1 GB it measured 18.9% of its timeout warm against 26.9%
         * with C1 only, and 23.2% against 27.2% for the first run in a fresh JVM (SweepScaleBenchmark).
         */
        FULL_TIERS("-XX:+TieredCompilation");

        private final String javaToolOptions;

        Jit(String javaToolOptions) {
            this.javaToolOptions = javaToolOptions;
        }

        public String javaToolOptions() {
            return javaToolOptions;
        }
    }

    public FunctionSpec {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(jit, "jit");
        environment = Map.copyOf(environment);
        if (!handler.contains("::")) {
            throw new IllegalArgumentException("handler must be class::method: " + handler);
        }
    }

    public static FunctionSpec of(FunctionSettings settings, String handlerClass) {
        return new FunctionSpec(settings, handlerClass + "::handleRequest", Map.of(), Jit.C1_ONLY);
    }

    public FunctionSpec withEnvironment(Map<String, String> extra) {
        return new FunctionSpec(settings, handler, extra, jit);
    }

    public FunctionSpec withJit(Jit tiers) {
        return new FunctionSpec(settings, handler, environment, tiers);
    }

    public String name() {
        return settings.name();
    }

    /** The construct id: {@code provisioner} becomes {@code Provisioner}. */
    String constructId() {
        return Character.toUpperCase(name().charAt(0)) + name().substring(1);
    }
}
