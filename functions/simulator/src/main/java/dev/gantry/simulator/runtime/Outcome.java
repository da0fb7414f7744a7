package dev.gantry.simulator.runtime;

import java.util.List;

/** How an invocation ended: its result, or what it threw; {@code killed} when it timed out or crashed. */
public record Outcome<T>(T result, Throwable error, boolean killed, List<String> out, List<String> err) {
}
