package dev.gantry.infra;

import dev.gantry.config.deployment.FunctionSettings;
import java.util.Map;
import java.util.Objects;

/**
 * One Gantry function: its size and limits from the {@link dev.gantry.config.deployment.DeploymentSettings}, which
 * handler, and the variables it gets on top of the shared ones.
 *
 * @param settings    name, memory, timeout and reserved concurrency; the jar is {@code <assetsDir>/<name>.jar}
 * @param handler     {@code class::method}
 * @param environment variables on top of the shared ones
 */
public record FunctionSpec(FunctionSettings settings, String handler, Map<String, String> environment) {
    public FunctionSpec {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(handler, "handler");
        environment = Map.copyOf(environment);
        if (!handler.contains("::")) {
            throw new IllegalArgumentException("handler must be class::method: " + handler);
        }
    }

    public static FunctionSpec of(FunctionSettings settings, String handlerClass) {
        return new FunctionSpec(settings, handlerClass + "::handleRequest", Map.of());
    }

    public FunctionSpec withEnvironment(Map<String, String> extra) {
        return new FunctionSpec(settings, handler, extra);
    }

    public String name() {
        return settings.name();
    }

    /** The construct id: {@code provisioner} becomes {@code Provisioner}. */
    String constructId() {
        return Character.toUpperCase(name().charAt(0)) + name().substring(1);
    }
}
