package dev.gantry.core.scheduling;

import dev.gantry.core.model.Pod;
import java.util.Map;

/**
 * Names new claims {@code <nodepool>-<5 characters>} as Karpenter does, but derived from the claim's pods rather than
 * random, so that solving the same snapshot twice names the same claims (which makes launch retries idempotent).
 */
final class ClaimNames {
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    private ClaimNames() {
    }

    static String name(Claim c, Map<String, Integer> taken) {
        long h = 1125899906842597L;
        for (String s : c.pods.stream().map(Pod::uid).sorted().toList()) {
            for (int i = 0; i < s.length(); i++) {
                h = 31 * h + s.charAt(i);
            }
            h = 31 * h + '|';
        }
        String base = c.pool.name() + "-" + suffix(h);
        int n = taken.merge(base, 1, Integer::sum);
        return n == 1 ? base : base + n;
    }

    private static String suffix(long h) {
        StringBuilder b = new StringBuilder();
        long v = h & Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            b.append(ALPHABET.charAt((int) (v % ALPHABET.length())));
            v /= ALPHABET.length();
        }
        return b.toString();
    }
}
