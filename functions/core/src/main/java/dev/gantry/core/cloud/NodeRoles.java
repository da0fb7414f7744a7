package dev.gantry.core.cloud;

import dev.gantry.core.model.NodeClass;
import java.util.Map;

/**
 * The node roles a deployment can pass to EC2, and so what an EC2NodeClass's nodes run as: the one path for a launch,
 * the class's status, and the simulator's account.
 *
 * <p>Karpenter makes an instance profile for an EC2NodeClass's {@code spec.role} itself. Gantry's functions have no
 * IAM rights over instance profiles, and may pass only the roles named at deploy ({@code iam:PassRole}): the stack's
 * own node role, and those given with {@code -c nodeRoles=}, each with a profile the stack made for it. A role among
 * them launches with its profile; any other role launches with the stack's own profile, which the class's
 * {@code InstanceProfileReady} condition says ({@code NodeClassReadiness.howFound}), so that Karpenter YAML works
 * unchanged and the difference is visible on the object rather than silent.
 *
 * @param defaultInstanceProfile the stack's node instance profile; null when the deployment has none (then a class
 *                               naming a role it cannot pass has no profile, and is not ready)
 * @param profiles               instance profile by role name, for every role the deployment can pass
 */
public record NodeRoles(String defaultInstanceProfile, Map<String, String> profiles) {
    public NodeRoles {
        profiles = Map.copyOf(profiles == null ? Map.of() : profiles);
    }

    /** A deployment with one profile and no role known by name (tests, the simulator's default account). */
    public static NodeRoles only(String defaultInstanceProfile) {
        return new NodeRoles(defaultInstanceProfile, Map.of());
    }

    /**
     * The instance profile a NodeClass's nodes launch with.
     *
     * @param name           null when there is none to launch with
     * @param undeployedRole the role the NodeClass names when the deployment cannot pass it and {@code name} is the
     *                       stack's own profile; null otherwise
     */
    public record InstanceProfile(String name, String undeployedRole) {
        /** What the class's {@code InstanceProfileReady} condition says when the role is not the one named; else null. */
        public String note() {
            return undeployedRole == null ? null : "role " + undeployedRole + " is not a node role of this deployment, "
                    + "so nodes run as its own (instance profile " + name + "); deploy with -c nodeRoles="
                    + undeployedRole + " to launch them with it";
        }
    }

    /**
     * {@code nc}'s instance profile: the one it names; for a role, the profile made for that role at deploy; for no
     * role (EKS Auto Mode's NodeClass without one), the stack's own. A role the deployment cannot pass launches with the
     * stack's own profile, and says so. A role may be written as a name or an ARN
     * ({@code arn:aws:iam::111122223333:role/path/name}).
     */
    public InstanceProfile of(NodeClass nc) {
        if (nc.instanceProfile() != null) {
            return new InstanceProfile(nc.instanceProfile(), null);
        }
        if (nc.role() == null) {
            return new InstanceProfile(defaultInstanceProfile, null);
        }
        String profile = profiles.get(roleName(nc.role()));
        return profile != null ? new InstanceProfile(profile, null)
                : new InstanceProfile(defaultInstanceProfile, defaultInstanceProfile == null ? null : nc.role());
    }

    /** A role's name as IAM knows it: the role as written, or the last segment of its ARN (after any path). */
    public static String roleName(String role) {
        return role.substring(role.lastIndexOf('/') + 1);
    }
}
