package dev.gantry.simulator.runtime;

import java.time.Duration;
import java.time.Instant;

/**
 * A heartbeat beside an invocation ({@link LambdaRuntime#beat}): one more thread of the invocation that runs its task
 * at a fixed rate until stopped, or until the invocation ends, dies or freezes.
 */
final class InvocationBeat {
    private InvocationBeat() {
    }

    static Runnable start(LambdaRuntime rt, Duration every, Runnable task) {
        Invocation inv = rt.current();
        if (inv == null) {
            return () -> { };
        }
        Strand parent = rt.running;
        Strand beat = new Strand(inv);
        boolean[] stopped = {false};
        boolean[] busy = {false};
        Strand[] waiting = {null};
        long[] waitToken = {0};
        Instant first = rt.loop.now();
        beat.thread = Thread.ofVirtual().name(parent.thread.getName() + "-heartbeat").unstarted(() -> {
            try {
                Baton.take(beat.wake);
                for (long k = 1; !stopped[0]; k++) {
                    Instant due = first.plus(every.multipliedBy(k));
                    if (due.isAfter(rt.loop.now())) {
                        rt.sleep(Duration.between(rt.loop.now(), due));
                    } else {
                        k = Duration.between(first, rt.loop.now()).dividedBy(every); // overran: the next slot is now
                    }
                    if (stopped[0] || inv.done || inv.dead || inv.frozen || rt.shuttingDown) {
                        break;
                    }
                    busy[0] = true;
                    try {
                        task.run();
                    } catch (Killed killed) {
                        throw killed;
                    } catch (RuntimeException e) {
                        // the task reports its own failures; the next beat comes all the same
                    } finally {
                        busy[0] = false;
                    }
                }
            } catch (Killed k) {
                // the invocation died, or the beat was stopped while it waited for its next slot
            } finally {
                beat.done = true;
                Baton.put(beat.back, LambdaRuntime.DONE);
            }
        });
        beat.onDone = () -> {
            inv.lanes.remove(beat);
            Strand w = waiting[0];
            if (inv.dead && !rt.shuttingDown) {
                rt.loop.at(rt.loop.now(), "kill " + parent.thread.getName(), () -> rt.killAll(inv));
            } else if (w != null) {
                long token = waitToken[0];
                rt.loop.at(rt.loop.now(), "heartbeat stopped, resume " + w.thread.getName(), () -> {
                    if (!w.done && !inv.dead && w.token == token) {
                        rt.resume(w, true);
                    }
                });
            }
        };
        inv.lanes.add(beat);
        beat.thread.start();
        rt.resume(beat, true); // runs on this thread's baton until the beat's first wait
        return () -> {
            stopped[0] = true;
            if (beat.done) {
                return;
            }
            if (busy[0] && rt.running != null && rt.running.inv == inv && !inv.dead) {
                // A beat under way: wait for it to end, as closing the real heartbeat waits on its lock.
                Strand self = rt.running;
                waiting[0] = self;
                waitToken[0] = ++self.token;
                rt.park(self);
                return;
            }
            if (!busy[0]) {
                beat.token++; // its wake-up at the next slot is void
                rt.resume(beat, false); // ends its thread now
            }
        };
    }
}
