package dev.gantry.config.deployment;

import java.time.Duration;
import java.util.Objects;

/**
 * One Lambda function's size and limits.
 *
 * @param name                short name: {@code webhook}, {@code provisioner}, ...; the jar is {@code <name>.jar}
 * @param memoryMb            memory, which also buys CPU (1769 MB = one vCPU)
 * @param timeout             hard limit per invocation
 * @param reservedConcurrency a cap (and a reservation) on concurrent invocations, or null for none
 */
public record FunctionSettings(String name, int memoryMb, Duration timeout, Integer reservedConcurrency) {
    public FunctionSettings {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(timeout, "timeout");
        if (memoryMb < 128 || memoryMb > 10_240) {
            throw new IllegalArgumentException(name + ": memoryMb must be 128 to 10240");
        }
        if (reservedConcurrency != null && reservedConcurrency < 1) {
            throw new IllegalArgumentException(name + ": reservedConcurrency must be at least 1");
        }
    }

    public FunctionSettings withReservedConcurrency(Integer cap) {
        return new FunctionSettings(name, memoryMb, timeout, cap);
    }
}
