package dev.gantry.aws.ec2;

import dev.gantry.core.cloud.CloudException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;

/**
 * The user data that makes an instance join the cluster by itself, per AMI family: a nodeadm NodeConfig in a MIME
 * document for AL2023, TOML settings for Bottlerocket. Either way the NodeClass's {@code userData} is merged in.
 *
 * <p>Instance-type labels (instance type, zone, karpenter.k8s.aws/instance-*) are not in the user data: one launch
 * template serves every override of a CreateFleet call, and EC2 picks the type. The node gets them when it registers
 * (the sweep labels it from the claim's instance), as Karpenter's registration controller does.
 */
public final class UserData {
    private UserData() {}

    /**
     * The plain-text user data for {@code amiFamily}.
     *
     * @throws CloudException (not retryable) for a family without a renderer, or NodeClass user data that cannot be
     *                        merged
     */
    public static String render(String amiFamily, BootstrapOptions options) {
        try {
            return switch (amiFamily.toLowerCase(Locale.ROOT)) {
                case "al2023" -> NodeadmUserData.render(options);
                case "bottlerocket" -> BottlerocketUserData.render(options);
                default -> throw new CloudException("UnsupportedAmiFamily",
                        "Gantry renders user data for AL2023 and Bottlerocket, not " + amiFamily, false);
            };
        } catch (IllegalArgumentException e) {
            throw new CloudException("InvalidUserData", e.getMessage(), false);
        }
    }

    /** Base64, as EC2 takes user data. */
    public static String encode(String userData) {
        return Base64.getEncoder().encodeToString(userData.getBytes(StandardCharsets.UTF_8));
    }
}
