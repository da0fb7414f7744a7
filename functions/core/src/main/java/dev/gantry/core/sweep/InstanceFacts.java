package dev.gantry.core.sweep;

import java.util.Map;
import java.util.Optional;

/**
 * What registration needs to know about an instance type: the labels a node of that type carries (the
 * {@code karpenter.k8s.aws/instance-*} family and friends, which user data cannot know in advance because the type is
 * chosen at launch) and the extended resources it must advertise before it counts as initialized.
 */
public record InstanceFacts(Map<String, String> labels, Map<String, Long> extendedResources) {
    public InstanceFacts {
        labels = Map.copyOf(labels == null ? Map.of() : labels);
        extendedResources = Map.copyOf(extendedResources == null ? Map.of() : extendedResources);
    }

    public static final InstanceFacts NONE = new InstanceFacts(Map.of(), Map.of());

    /** Looks facts up by instance type name (the composition root backs this with the catalogue). */
    @FunctionalInterface
    public interface Source {
        Optional<InstanceFacts> of(String instanceType);
    }
}
