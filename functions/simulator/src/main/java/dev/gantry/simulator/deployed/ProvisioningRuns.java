package dev.gantry.simulator.deployed;

import dev.gantry.core.provisioning.ProvisioningOutcome;
import dev.gantry.handlers.ProvisioningListener;
import dev.gantry.simulator.runtime.Invocation;
import dev.gantry.simulator.runtime.LambdaRuntime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The provisioner's completed runs as the handler reports them ({@link ProvisioningListener}), kept by invocation
 * until the event source takes them at the invocation's end: the timeline learns which launches failed from these
 * values, not from the handler's log lines. Invocations overlap, so each run is filed under the invocation whose
 * thread reported it.
 */
final class ProvisioningRuns implements ProvisioningListener {
    private final LambdaRuntime runtime;
    private final Map<Invocation, List<ProvisioningOutcome>> byInvocation = new HashMap<>();

    ProvisioningRuns(LambdaRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public void ran(ProvisioningOutcome outcome) {
        byInvocation.computeIfAbsent(runtime.current(), k -> new ArrayList<>()).add(outcome);
    }

    /** What {@code invocation}'s runs reported, in order (none if it died first); forgets them. */
    List<ProvisioningOutcome> take(Invocation invocation) {
        List<ProvisioningOutcome> runs = byInvocation.remove(invocation);
        return runs == null ? List.of() : runs;
    }
}
