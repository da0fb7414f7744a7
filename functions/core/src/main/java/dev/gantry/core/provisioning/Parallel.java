package dev.gantry.core.provisioning;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * Runs independent port calls side by side (each launch is a few EC2 and store round trips; each event one API call),
 * at most {@code parallelism} at a time, on virtual threads. Results keep the input order, so what follows stays
 * deterministic. Every task runs to the end even when one fails; then the first failure is rethrown.
 */
final class Parallel {
    private Parallel() {
    }

    static <T, R> List<R> map(List<T> items, int parallelism, Function<T, R> task) {
        if (items.size() <= 1 || parallelism <= 1) {
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
        Semaphore permits = new Semaphore(parallelism);
        List<Future<R>> futures = new ArrayList<>(items.size());
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (T item : items) {
                futures.add(pool.submit(() -> {
                    permits.acquire();
                    try {
                        return task.apply(item);
                    } finally {
                        permits.release();
                    }
                }));
            }
        }
        List<R> out = new ArrayList<>(items.size());
        RuntimeException first = null;
        for (Future<R> f : futures) {
            try {
                out.add(f.get());
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof Error err) {
                    throw err;
                }
                first = first == null ? (cause instanceof RuntimeException re ? re : new IllegalStateException(cause)) : first;
                out.add(null);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for launches", e);
            }
        }
        if (first != null) {
            throw first;
        }
        return out;
    }
}
