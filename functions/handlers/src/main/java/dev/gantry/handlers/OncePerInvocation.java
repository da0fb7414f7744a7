package dev.gantry.handlers;

import java.util.function.Supplier;

/**
 * A handler's service asked for once per invocation: the first record that needs it asks ({@code ConfigBound} reads the
 * cluster's configuration then), the others reuse the answer, so a batch of ten records lists the configuration once
 * and runs on one configuration. A failed ask is not kept: the next record asks again.
 */
final class OncePerInvocation<S> implements Supplier<S> {
    private final Supplier<S> source;
    private S value;

    private OncePerInvocation(Supplier<S> source) {
        this.source = source;
    }

    static <S> Supplier<S> of(Supplier<S> source) {
        return new OncePerInvocation<>(source);
    }

    @Override
    public S get() {
        if (value == null) {
            value = source.get();
        }
        return value;
    }
}
