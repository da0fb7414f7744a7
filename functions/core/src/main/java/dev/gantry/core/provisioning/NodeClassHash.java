package dev.gantry.core.provisioning;

import dev.gantry.core.model.NodeClass;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Identifies a NodeClass's settings: equal settings give the same hash in every JVM (records render their components
 * deterministically), so a claim records what it was launched with and drift can be told later.
 */
final class NodeClassHash {
    private NodeClassHash() {
    }

    static String of(NodeClass nodeClass) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(nodeClass.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
