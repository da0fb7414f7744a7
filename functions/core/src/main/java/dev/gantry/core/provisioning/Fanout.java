package dev.gantry.core.provisioning;

import java.util.List;
import java.util.function.Function;

/**
 * How a provisioning run carries out independent port calls side by side (its launches, its Kubernetes Events):
 * {@code task} applied to every item, at most {@code parallelism} at a time. Results keep the input order; every task
 * runs to the end even when one fails, then the first failure is rethrown.
 *
 * <p>{@link #THREADS}, what the functions deploy, runs them on virtual threads. A host that must decide the interleaving
 * itself (the simulator, whose invocations run one thread at a time on a virtual clock) runs them with
 * {@link #SEQUENTIAL} and accounts for the parallelism in its own time.
 */
public interface Fanout {
    /** On virtual threads, at most {@code parallelism} at a time. */
    Fanout THREADS = Parallel::map;

    /** One after another on the calling thread, in order, whatever the parallelism. */
    Fanout SEQUENTIAL = new Fanout() {
        @Override
        public <T, R> List<R> map(List<T> items, int parallelism, Function<T, R> task) {
            return Parallel.map(items, 1, task);
        }
    };

    <T, R> List<R> map(List<T> items, int parallelism, Function<T, R> task);
}
