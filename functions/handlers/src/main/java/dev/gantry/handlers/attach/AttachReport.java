package dev.gantry.handlers.attach;

import java.util.ArrayList;
import java.util.List;

/**
 * What one attach did, for its log and for the custom resource's {@code Data} (which CloudFormation caps, with the
 * rest of the response, at 4 KB: {@link #summary()} is cut to {@value #MAX_SUMMARY} characters, and the full
 * {@link #text()} goes to the function's log).
 *
 * @param objects the RBAC and webhook objects applied
 * @param crds    one line per CRD ({@link CrdInstall})
 * @param seeded  the bundle's apply, or null when there was no bundle
 */
record AttachReport(int objects, List<String> crds, BundleApply.Outcome seeded) {
    static final int MAX_SUMMARY = 2_500;

    List<String> lines() {
        List<String> out = new ArrayList<>(crds);
        if (seeded == null) {
            out.add("bundle: none");
            return out;
        }
        out.add("bundle: applied " + seeded.applied().size() + " (" + String.join(", ", seeded.applied()) + ")");
        seeded.conflicts().forEach(c -> out.add("bundle conflict: " + c));
        seeded.skipped().forEach(s -> out.add("bundle skipped: " + s));
        return out;
    }

    String text() {
        return String.join("\n", lines());
    }

    /** The text, cut to fit the custom resource response. */
    String summary() {
        String t = text();
        return t.length() <= MAX_SUMMARY ? t : t.substring(0, MAX_SUMMARY - 40) + "\n... (full report in the attach log)";
    }
}
