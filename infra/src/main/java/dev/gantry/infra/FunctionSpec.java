package dev.gantry.infra;

import java.util.Map;
import java.util.Objects;
import software.amazon.awscdk.Duration;

/**
 * One Gantry function: which jar and handler, how big, how long, and how many at once. Sizing reasons live where
 * the specs are declared ({@link GantryAutoscaler}), one line each.
 *
 * @param name                 short name; the jar is {@code <assetsDir>/<name>.jar}
 * @param handler              {@code class::method}
 * @param memoryMb             Lambda memory, which also buys CPU (1769 MB = one vCPU)
 * @param timeout              hard limit per invocation
 * @param reservedConcurrency  a cap, or null for none
 * @param environment          variables on top of the shared ones
 */
public record FunctionSpec(String name, String handler, int memoryMb, Duration timeout, Integer reservedConcurrency,
                           Map<String, String> environment) {
    public FunctionSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(timeout, "timeout");
        environment = Map.copyOf(environment);
        if (!handler.contains("::")) {
            throw new IllegalArgumentException("handler must be class::method: " + handler);
        }
    }

    public static FunctionSpec of(String name, String handlerClass, int memoryMb, Duration timeout) {
        return new FunctionSpec(name, handlerClass + "::handleRequest", memoryMb, timeout, null, Map.of());
    }

    public FunctionSpec withReservedConcurrency(Integer cap) {
        return new FunctionSpec(name, handler, memoryMb, timeout, cap, environment);
    }

    public FunctionSpec withEnvironment(Map<String, String> extra) {
        return new FunctionSpec(name, handler, memoryMb, timeout, reservedConcurrency, extra);
    }

    /** The construct id: {@code provisioner} becomes {@code Provisioner}. */
    String constructId() {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }
}
