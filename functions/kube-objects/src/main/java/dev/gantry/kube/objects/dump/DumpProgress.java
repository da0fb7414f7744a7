package dev.gantry.kube.objects.dump;

/**
 * Where a long read says how far it got: {@code line} is one line for a person, such as
 * {@code read 12,400 objects (21 MB of 45 MB) in 2.0 s}. The reader reports every {@link #EVERY} of wall time and
 * once at the end of each phase that has taken longer than that; a caller that wants silence passes {@link #NONE}.
 */
@FunctionalInterface
public interface DumpProgress {
    /** How often a long phase reports, and how long a phase must take before its end is reported. */
    java.time.Duration EVERY = java.time.Duration.ofSeconds(2);

    DumpProgress NONE = line -> { };

    void report(String line);
}
