package dev.gantry.core.catalog;

import java.util.Objects;

/**
 * An availability zone offerings are placed in: its name ({@code us-east-1a}) and, when known, its account-independent
 * id ({@code use1-az1}) for the {@code topology.k8s.aws/zone-id} label.
 */
public record Zone(String name, String id) {
    public Zone {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("zone name is blank");
        }
    }

    public static Zone of(String name) {
        return new Zone(name, null);
    }
}
