package dev.gantry.aws.ec2;

import dev.gantry.core.model.NodeClass.BlockDeviceMapping;
import dev.gantry.core.model.NodeClass.Ebs;
import dev.gantry.core.model.Quantity;
import java.util.List;

/** The block devices an AMI family gets when the NodeClass names none: Karpenter's defaults (encrypted gp3). */
final class BlockDevices {
    private BlockDevices() {}

    static List<BlockDeviceMapping> defaults(String amiFamily) {
        if ("Bottlerocket".equalsIgnoreCase(amiFamily)) {
            // Bottlerocket: a small OS volume and a data volume that holds images and pods.
            return List.of(new BlockDeviceMapping("/dev/xvda", false, gp3("4Gi")),
                    new BlockDeviceMapping("/dev/xvdb", true, gp3("20Gi")));
        }
        return List.of(new BlockDeviceMapping("/dev/xvda", true, gp3("20Gi")));
    }

    private static Ebs gp3(String size) {
        return new Ebs(Quantity.parse(size), "gp3", null, null, true, null, true, null);
    }
}
