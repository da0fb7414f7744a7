package dev.gantry.core.cluster;

import dev.gantry.core.model.Taint;
import java.util.List;
import java.util.Map;

/**
 * A change to a node: labels to set or remove, taints to add or remove, cordon, finalizers to add or remove,
 * annotations to set. Fields left empty or null change nothing.
 */
public record NodePatch(Map<String, String> setLabels, List<Taint> addTaints, List<String> removeTaintKeys,
                        Boolean unschedulable, List<String> addFinalizers, List<String> removeFinalizers,
                        List<String> removeLabels, Map<String, String> setAnnotations) {
    /** A patch that removes no label and sets no annotation. */
    public NodePatch(Map<String, String> setLabels, List<Taint> addTaints, List<String> removeTaintKeys,
                     Boolean unschedulable, List<String> addFinalizers, List<String> removeFinalizers) {
        this(setLabels, addTaints, removeTaintKeys, unschedulable, addFinalizers, removeFinalizers, null, null);
    }

    /** A patch that sets no annotation. */
    public NodePatch(Map<String, String> setLabels, List<Taint> addTaints, List<String> removeTaintKeys,
                     Boolean unschedulable, List<String> addFinalizers, List<String> removeFinalizers,
                     List<String> removeLabels) {
        this(setLabels, addTaints, removeTaintKeys, unschedulable, addFinalizers, removeFinalizers, removeLabels, null);
    }

    public NodePatch {
        setAnnotations = Map.copyOf(setAnnotations == null ? Map.of() : setAnnotations);
        removeLabels = List.copyOf(removeLabels == null ? List.of() : removeLabels);
        setLabels = Map.copyOf(setLabels == null ? Map.of() : setLabels);
        addTaints = List.copyOf(addTaints == null ? List.of() : addTaints);
        removeTaintKeys = List.copyOf(removeTaintKeys == null ? List.of() : removeTaintKeys);
        addFinalizers = List.copyOf(addFinalizers == null ? List.of() : addFinalizers);
        removeFinalizers = List.copyOf(removeFinalizers == null ? List.of() : removeFinalizers);
    }

    public static NodePatch labels(Map<String, String> labels) {
        return new NodePatch(labels, null, null, null, null, null);
    }

    /** Sets {@code set} and removes the labels {@code remove} (absent ones are no change). */
    public static NodePatch relabel(Map<String, String> set, List<String> remove) {
        return new NodePatch(set, null, null, null, null, null, remove);
    }

    public static NodePatch addFinalizer(String f) {
        return new NodePatch(null, null, null, null, List.of(f), null);
    }

    public static NodePatch removeFinalizer(String f) {
        return new NodePatch(null, null, null, null, null, List.of(f));
    }
}
