package dev.gantry.handlers;

import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * A primer's SnapStart hooks, registered with CRaC. The global context holds resources weakly, so the handler that
 * registers them keeps the returned object in a field for as long as it lives.
 */
final class SnapStartHooks implements Resource {
    private final SnapStartPrimer primer;

    private SnapStartHooks(SnapStartPrimer primer) {
        this.primer = primer;
    }

    static SnapStartHooks register(SnapStartPrimer primer) {
        SnapStartHooks hooks = new SnapStartHooks(primer);
        Core.getGlobalContext().register(hooks);
        return hooks;
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        primer.beforeCheckpoint();
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        primer.afterRestore();
    }
}
