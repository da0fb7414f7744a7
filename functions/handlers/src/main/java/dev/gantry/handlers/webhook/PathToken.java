package dev.gantry.handlers.webhook;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The webhook's shared secret, carried in the URL path as {@code /hook/<token>} (the API server cannot sign requests,
 * and the Function URL has auth NONE). Compared in constant time: both sides are hashed first, so neither the
 * content nor the length of the expected token leaks through timing.
 */
public final class PathToken {
    private static final String PREFIX = "/hook/";
    private final byte[] expectedDigest;

    private PathToken(byte[] expectedDigest) {
        this.expectedDigest = expectedDigest;
    }

    /** @throws IllegalArgumentException for a blank token: an empty secret would let anyone in */
    public static PathToken of(String token) {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("the webhook token is empty");
        }
        return new PathToken(sha256(token.trim()));
    }

    /** Whether the request path is exactly {@code /hook/<the token>}. */
    public boolean admits(String rawPath) {
        if (rawPath == null || !rawPath.startsWith(PREFIX)) {
            return false;
        }
        return MessageDigest.isEqual(expectedDigest, sha256(rawPath.substring(PREFIX.length())));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
