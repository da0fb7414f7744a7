package dev.gantry.simulator.runtime;

import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/** The hand-offs of {@link LambdaRuntime}'s baton: none may be dropped by an interrupt. */
final class Baton {
    /** Real time an invocation may run between two port calls before the simulation gives up on it. */
    private static final long STUCK_MINUTES = 10;

    private Baton() {
    }

    /**
     * Waits for the strand named {@code name} to hand the baton back. An invocation that blocks outside a port call (on
     * a lock another, parked, invocation holds) would hang the simulation: fail loudly instead.
     */
    static Object poll(SynchronousQueue<Object> back, String name) {
        while (true) {
            try {
                Object r = back.poll(STUCK_MINUTES, TimeUnit.MINUTES);
                if (r == null) {
                    throw new IllegalStateException(name + " ran " + STUCK_MINUTES
                            + " minutes of real time without a port call: blocked outside the simulation's control?");
                }
                return r;
            } catch (InterruptedException e) {
                // The baton must not be dropped: keep waiting.
            }
        }
    }

    static <T> T take(SynchronousQueue<T> q) {
        while (true) {
            try {
                return q.take();
            } catch (InterruptedException e) {
                // The baton must not be dropped: keep waiting.
            }
        }
    }

    static <T> void put(SynchronousQueue<T> q, T v) {
        while (true) {
            try {
                q.put(v);
                return;
            } catch (InterruptedException e) {
                // as above
            }
        }
    }
}
