package dev.gantry.handlers;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Runs a task every so often while an invocation works: the provisioner renews its batch's short hold with it, so the
 * batch stays hidden exactly while the run lives and comes back within seconds of the run's death. The task runs
 * beside the invocation's own thread, the way Lambda runs it: it dies with the process (a crash, the timeout) and
 * freezes with it.
 *
 * <p>Beats start at a fixed rate, {@code every} apart from the first (at {@code every}, {@code 2 x every}…), however
 * long each one takes: a renewal that hangs for its whole call budget does not push the next ones back, so the gap
 * between two renewals' starts is {@code every}, never {@code every} plus a slow call. A beat that overran its slot
 * is followed by the next at once.
 */
@FunctionalInterface
public interface Heartbeat {
    /** The beating; {@link #close} stops it, and once close returns no beat is running or will run. */
    interface Beat extends AutoCloseable {
        @Override
        void close();
    }

    /** How the beating thread waits for its next slot. */
    @FunctionalInterface
    interface Sleep {
        void sleep(Duration d) throws InterruptedException;
    }

    /** @param beat unchecked failures are the task's to report; a failed beat does not stop the next */
    Beat start(Duration every, Runnable beat);

    /** A virtual thread per invocation, beating at a fixed rate on the system's monotonic clock. */
    Heartbeat THREAD = onThread(System::nanoTime, Thread::sleep);

    /** A virtual thread per invocation, beating at a fixed rate as {@code nanoTime} counts, waiting with {@code sleep}. */
    static Heartbeat onThread(LongSupplier nanoTime, Sleep sleep) {
        return (every, beat) -> {
            ReentrantLock lock = new ReentrantLock();
            boolean[] stopped = {false};
            long period = every.toNanos();
            long start = nanoTime.getAsLong();
            Thread t = Thread.ofVirtual().name("gantry-heartbeat").start(() -> {
                long slot = 1;
                while (true) {
                    long wait = start + slot * period - nanoTime.getAsLong();
                    try {
                        if (wait > 0) {
                            sleep.sleep(Duration.ofNanos(wait));
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                    lock.lock();
                    try {
                        if (stopped[0]) {
                            return;
                        }
                        beat.run();
                    } catch (RuntimeException e) {
                        System.err.println("heartbeat: " + e.getClass().getSimpleName() + ": " + e.getMessage());
                    } finally {
                        lock.unlock();
                    }
                    // The next slot after this one, or the latest one already due if this beat overran.
                    slot = Math.max(slot + 1, (nanoTime.getAsLong() - start) / period);
                }
            });
            return () -> {
                lock.lock(); // waits out a beat under way
                try {
                    stopped[0] = true;
                } finally {
                    lock.unlock();
                }
                t.interrupt();
            };
        };
    }
}
