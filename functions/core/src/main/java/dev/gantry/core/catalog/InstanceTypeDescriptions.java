package dev.gantry.core.catalog;

import java.util.Optional;
import java.util.Set;

/**
 * Where the raw facts of an instance type the built-in catalogue lacks come from: EC2 DescribeInstanceTypes, which
 * knows a type (a preview one, allowlisted for the account) before any data file does.
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #describe} gives the type's {@link InstanceTypeSpec} as EC2 states it (nothing estimated: a fact EC2
 *       does not give stays null) and the capacity types it can be bought as ({@code on-demand}, {@code spot}: EC2's
 *       {@code SupportedUsageClasses} without the others, as Karpenter's {@code computeRequirements} reads them in
 *       aws {@code pkg/providers/instancetype/types.go}).</li>
 *   <li>A type EC2 does not know (its {@code InvalidInstanceType}) is empty, not an error.</li>
 *   <li>Any other failure (throttling, permissions, network) is thrown as an unchecked exception, so a caller can
 *       tell "no such type" from "could not ask"; implementations may cache answers, never failures.</li>
 * </ul>
 */
public interface InstanceTypeDescriptions {
    /** Nowhere to ask (offline): every type is unknown. */
    InstanceTypeDescriptions NONE = name -> Optional.empty();

    Optional<Described> describe(String instanceType);

    /** One type as EC2 describes it: its facts and the capacity types it is sold as. */
    record Described(InstanceTypeSpec spec, Set<String> capacityTypes) {
        public Described {
            java.util.Objects.requireNonNull(spec, "spec");
            capacityTypes = Set.copyOf(capacityTypes);
        }
    }
}
