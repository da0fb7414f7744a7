package dev.gantry.core.scheduling;

import java.util.Set;

/** Somewhere a pod can go: an existing node, an in-flight claim or a new claim. Seen by topology checks. */
interface Slot {
    /** The slot's hostname domain: the node name, or the claim name for capacity not yet launched. */
    String hostname();

    /** The values the slot's {@code key} label can still take: one for a node, possibly several for an open claim. */
    Set<String> domains(String key);
}
