package dev.gantry.core.model;

/** A DaemonSet: its pod template decides which nodes it lands on and what each copy requests. */
public record DaemonSet(String namespace, String name, Pod template) {
}
