package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hooks the interruption, termination and sweep handlers register, driven directly as SnapStart would. */
class SnapStartHooksTest {
    @Test
    void checkpointPrimesAndRestoreRefreshesThroughTheHandlersPrimer() {
        List<String> calls = new ArrayList<>();
        SnapStartPrimer primer = new SnapStartPrimer() {
            @Override
            public void beforeCheckpoint() {
                calls.add("prime");
            }

            @Override
            public void afterRestore() {
                calls.add("refresh");
            }
        };
        SnapStartHooks hooks = SnapStartHooks.register(primer);

        hooks.beforeCheckpoint(null);
        hooks.afterRestore(null);

        assertThat(calls).containsExactly("prime", "refresh");
    }
}
