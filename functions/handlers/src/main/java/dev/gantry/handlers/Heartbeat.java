package dev.gantry.handlers;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs a task every so often while an invocation works: the provisioner renews its batch's short hold with it, so the
 * batch stays hidden exactly while the run lives and comes back within seconds of the run's death. The task runs
 * beside the invocation's own thread, the way Lambda runs it: it dies with the process (a crash, the timeout) and
 * freezes with it.
 */
@FunctionalInterface
public interface Heartbeat {
    /** The beating; {@link #close} stops it, and once close returns no beat is running or will run. */
    interface Beat extends AutoCloseable {
        @Override
        void close();
    }

    /** @param beat unchecked failures are the task's to report; a failed beat does not stop the next */
    Beat start(Duration every, Runnable beat);

    /** A virtual thread per invocation that sleeps {@code every} between beats. */
    Heartbeat THREAD = (every, beat) -> {
        ReentrantLock lock = new ReentrantLock();
        boolean[] stopped = {false};
        Thread t = Thread.ofVirtual().name("gantry-heartbeat").start(() -> {
            while (true) {
                try {
                    Thread.sleep(every);
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
