package dev.gantry.testing.iam;

import java.util.List;

/**
 * Names the test that is running on this thread: the outermost stack frame that belongs neither to the JDK nor to
 * the test frameworks ({@code dev.gantry.handlers.FooTest.method}). Stubs and recorders take it when they are
 * created, so a recorded call can be traced to the test that made it.
 */
public final class TestOrigin {
    private static final List<String> FRAMEWORK = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "org.junit.",
            "org.apache.maven.", "org.opentest4j.", "worker.org.gradle.");

    private TestOrigin() {
    }

    /** {@code Class.method} of the outermost non-framework frame, or the thread's name when there is none. */
    public static String current() {
        return StackWalker.getInstance().walk(frames -> frames
                        .filter(f -> FRAMEWORK.stream().noneMatch(f.getClassName()::startsWith))
                        .reduce((first, second) -> second)
                        .map(f -> f.getClassName() + "." + f.getMethodName()))
                .orElse("thread " + Thread.currentThread().getName());
    }
}
