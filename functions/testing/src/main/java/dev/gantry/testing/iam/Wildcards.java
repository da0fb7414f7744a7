package dev.gantry.testing.iam;

/**
 * IAM's glob matching: {@code *} matches any run of characters (none included), {@code ?} exactly one; everything
 * else is literal. Iterative with backtracking to the last star, so no pattern is exponential.
 */
final class Wildcards {
    private Wildcards() {
    }

    static boolean matches(String pattern, String value, boolean ignoreCase) {
        int p = 0;
        int v = 0;
        int star = -1;
        int resume = 0;
        while (v < value.length()) {
            if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                resume = v;
            } else if (p < pattern.length() && (pattern.charAt(p) == '?' || same(pattern.charAt(p), value.charAt(v), ignoreCase))) {
                p++;
                v++;
            } else if (star >= 0) {
                p = star + 1;
                v = ++resume;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }

    /**
     * ARN matching as IAM does it for Resource and the Arn condition operators: both split into their six
     * colon-separated parts (the last keeps any further colons), each part matched with wildcards, case-sensitively.
     * A pattern of exactly {@code *} matches everything; a pattern or value that is not a six-part ARN matches only
     * itself.
     */
    static boolean arnMatches(String pattern, String arn) {
        if (pattern.equals("*")) {
            return true;
        }
        String[] p = pattern.split(":", 6);
        String[] a = arn.split(":", 6);
        if (p.length != 6 || a.length != 6) {
            return pattern.equals(arn);
        }
        for (int i = 0; i < 6; i++) {
            if (!matches(p[i], a[i], false)) {
                return false;
            }
        }
        return true;
    }

    private static boolean same(char a, char b, boolean ignoreCase) {
        return a == b || ignoreCase && Character.toLowerCase(a) == Character.toLowerCase(b);
    }
}
