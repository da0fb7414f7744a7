package dev.gantry.simulator.runtime;

import java.util.concurrent.SynchronousQueue;

/**
 * One thread of an invocation: its handler's own, or a lane of a fan-out ({@link LambdaRuntime#fanOut}). Each parks at its port
 * calls and is resumed on its own; the invocation's deadline, or a crash on any of them, kills them all.
 */
final class Strand {
    final Invocation inv;
    final SynchronousQueue<Boolean> wake = new SynchronousQueue<>();
    /** Where the strand hands the baton back to whoever resumed it (the loop, or the strand starting its lanes). */
    final SynchronousQueue<Object> back = new SynchronousQueue<>();
    Thread thread;
    long token;
    boolean done;
    Runnable onDone = () -> { };

    Strand(Invocation inv) {
        this.inv = inv;
    }
}
