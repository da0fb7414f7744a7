package dev.gantry.aws.ec2;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A MIME multipart user data document, as cloud-init and nodeadm read it: parts of (content type, content).
 * Serialised like Karpenter's (boundary {@code //}, LF line ends), so the AL2023 user data reads the same.
 */
public record MimeArchive(List<Part> parts) {
    public static final String BOUNDARY = "//";
    public static final String NODE_CONFIG = "application/node.eks.aws";
    public static final String SHELL = "text/x-shellscript; charset=\"us-ascii\"";
    private static final Pattern BOUNDARY_PARAM = Pattern.compile("boundary=\"?([^\";]+)\"?", Pattern.CASE_INSENSITIVE);

    public record Part(String contentType, String content) {}

    public MimeArchive {
        parts = List.copyOf(parts);
    }

    /** Whether a user data text is already a MIME document (starts with a MIME header). */
    public static boolean looksLikeMime(String text) {
        String t = text.strip();
        return t.startsWith("MIME-Version:") || t.startsWith("Content-Type:");
    }

    /** Parses a multipart document. @throws IllegalArgumentException when it is not multipart or has no boundary */
    public static MimeArchive parse(String text) {
        String normalized = text.replace("\r\n", "\n");
        int headerEnd = normalized.indexOf("\n\n");
        String headers = headerEnd < 0 ? normalized : normalized.substring(0, headerEnd);
        Matcher m = BOUNDARY_PARAM.matcher(headers);
        if (!headers.toLowerCase(Locale.ROOT).contains("multipart/") || !m.find()) {
            throw new IllegalArgumentException("userData is MIME but not multipart with a boundary");
        }
        String delimiter = "--" + m.group(1);
        List<Part> parts = new ArrayList<>();
        String[] chunks = normalized.substring(headerEnd + 2).split(Pattern.quote(delimiter), -1);
        for (int i = 1; i < chunks.length; i++) {
            String chunk = chunks[i];
            if (chunk.startsWith("--")) {
                break; // the closing delimiter
            }
            chunk = chunk.startsWith("\n") ? chunk.substring(1) : chunk;
            int blank = chunk.indexOf("\n\n");
            String partHeaders = blank < 0 ? chunk : chunk.substring(0, blank);
            String body = blank < 0 ? "" : chunk.substring(blank + 2);
            body = body.endsWith("\n") ? body.substring(0, body.length() - 1) : body;
            String type = "text/plain";
            for (String line : partHeaders.split("\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("content-type:")) {
                    type = line.substring("content-type:".length()).strip();
                }
            }
            parts.add(new Part(type, body));
        }
        return new MimeArchive(parts);
    }

    /** The document text (not yet base64). */
    public String serialize() {
        StringBuilder out = new StringBuilder("MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"")
                .append(BOUNDARY).append("\"\n\n");
        for (Part p : parts) {
            out.append("--").append(BOUNDARY).append('\n').append("Content-Type: ").append(p.contentType())
                    .append("\n\n").append(p.content());
            if (!p.content().endsWith("\n")) {
                out.append('\n');
            }
        }
        return out.append("--").append(BOUNDARY).append("--\n").toString();
    }
}
