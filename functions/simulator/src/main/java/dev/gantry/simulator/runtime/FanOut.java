package dev.gantry.simulator.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * An invocation's fan-out ({@link LambdaRuntime#fanOut}): one thread of the invocation per lane, each taking the next
 * item when it is done with one, parked at its port calls like the handler's own thread.
 */
final class FanOut {
    private FanOut() {
    }

    static <T, R> List<R> run(LambdaRuntime rt, List<T> items, int lanes, Function<T, R> task) {
        if (lanes < 1) {
            throw new IllegalArgumentException("lanes must be at least 1, got " + lanes);
        }
        Invocation inv = rt.current();
        int width = Math.min(lanes, items.size());
        if (inv == null || width <= 1 || rt.running != inv.main) {
            return sequentially(items, task);
        }
        Strand parent = rt.running;
        Object[] results = new Object[items.size()];
        RuntimeException[] errors = new RuntimeException[items.size()];
        int[] next = {0};
        int[] open = {width};
        boolean[] joining = {false};
        long joinToken = ++parent.token;
        for (int l = 0; l < width; l++) {
            Strand lane = new Strand(inv);
            lane.thread = Thread.ofVirtual().name(parent.thread.getName() + "-lane" + (l + 1)).unstarted(() -> {
                try {
                    Baton.take(lane.wake);
                    while (!inv.dead && next[0] < items.size()) {
                        int i = next[0]++;
                        try {
                            results[i] = task.apply(items.get(i));
                        } catch (RuntimeException e) {
                            errors[i] = e;
                        }
                    }
                } catch (Killed k) {
                    // the invocation died: this lane stops where it stands
                } finally {
                    lane.done = true;
                    Baton.put(lane.back, LambdaRuntime.DONE);
                }
            });
            lane.onDone = () -> {
                inv.lanes.remove(lane);
                if (--open[0] == 0 && joining[0] && !inv.dead) {
                    rt.loop.at(rt.loop.now(), "join " + parent.thread.getName(), () -> {
                        if (!parent.done && !inv.dead && parent.token == joinToken) {
                            rt.resume(parent, true);
                        }
                    });
                } else if (inv.dead && !rt.shuttingDown) {
                    rt.loop.at(rt.loop.now(), "kill " + parent.thread.getName(), () -> rt.killAll(inv));
                }
            };
            inv.lanes.add(lane);
            lane.thread.start();
            rt.resume(lane, true); // runs on this thread's baton until the lane's first wait
        }
        if (open[0] > 0 && !inv.dead) {
            joining[0] = true;
            rt.park(parent);
        }
        if (inv.dead) {
            throw new Killed(inv.cause);
        }
        for (RuntimeException e : errors) {
            if (e != null) {
                throw e;
            }
        }
        List<R> out = new ArrayList<>(items.size());
        for (Object r : results) {
            @SuppressWarnings("unchecked") R cast = (R) r;
            out.add(cast);
        }
        return out;
    }

    private static <T, R> List<R> sequentially(List<T> items, Function<T, R> task) {
        List<R> out = new ArrayList<>(items.size());
        RuntimeException first = null;
        for (T item : items) {
            try {
                out.add(task.apply(item));
            } catch (RuntimeException e) {
                first = first == null ? e : first;
                out.add(null);
            }
        }
        if (first != null) {
            throw first;
        }
        return out;
    }
}
