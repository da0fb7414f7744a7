package dev.gantry.core.scheduling;

import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Requirements;
import java.util.List;
import java.util.Set;

/** Somewhere a pod can go: an existing node, an in-flight claim or a new claim. Seen by topology checks. */
interface Slot {
    /** The slot's hostname domain: the node name, or the claim name for capacity not yet launched. */
    String hostname();

    /** The values the slot's {@code key} label can still take: one for a node, possibly several for an open claim. */
    Set<String> domains(String key);

    /** The taints a pod must tolerate here (for a spread's {@code nodeTaintsPolicy: Honor}). */
    List<Taint> taints();

    /** Whether the node here can satisfy a node-selector term (for a spread's {@code nodeAffinityPolicy: Honor}). */
    boolean couldMatch(Requirements term);
}
