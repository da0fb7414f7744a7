package dev.gantry.config.yaml;

import java.util.Collection;

/** "Did you mean …?" for misspelt field names, by Levenshtein distance. */
public final class Suggest {
    private Suggest() {
    }

    /**
     * The candidate closest to {@code word}, if it is a near miss: at most 2 edits, and fewer edits than a third
     * of the longer word (so short unrelated words are not suggested). Case differences count as one edit each.
     */
    public static String closest(String word, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = distance(word, c);
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        if (best == null) {
            return null;
        }
        int longer = Math.max(word.length(), best.length());
        return bestDistance <= 2 && bestDistance * 3 <= longer ? best : null;
    }

    /**
     * {@code , did you mean "X"?} for a value that is not one of {@code candidates}, or empty when none is near: a
     * candidate equal but for case first ({@code in} for {@code In}, which {@link #closest} finds too far for a short
     * word), else {@link #closest}.
     */
    public static String didYouMean(String word, Collection<String> candidates) {
        if (word == null) {
            return "";
        }
        String near = candidates.stream().filter(c -> c.equalsIgnoreCase(word.trim())).findFirst()
                .orElseGet(() -> closest(word, candidates));
        return near == null ? "" : ", did you mean \"" + near + "\"?";
    }

    /** The Levenshtein edit distance (insertions, deletions, substitutions). */
    public static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
