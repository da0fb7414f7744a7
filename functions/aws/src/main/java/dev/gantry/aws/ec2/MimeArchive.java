package dev.gantry.aws.ec2;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.james.mime4j.MimeException;
import org.apache.james.mime4j.stream.EntityState;
import org.apache.james.mime4j.stream.MimeConfig;
import org.apache.james.mime4j.stream.MimeTokenStream;
import org.apache.james.mime4j.stream.RecursionMode;

/**
 * A MIME multipart user data document, as cloud-init and nodeadm read it: parts of (content type, content).
 *
 * <p>Reading is Apache James mime4j's: folded headers, CRLF or LF, quoted boundaries, a preamble, and base64 or
 * quoted-printable parts (decoded, so what reaches the instance is plain text that nodeadm reads too). A nested
 * multipart part stays one part, its body raw, as Karpenter keeps it. A part whose decoded bytes are not UTF-8
 * text (a gzip archive, say) keeps its bytes: it is written back base64 with its transfer encoding.
 *
 * <p>Writing is Go's {@code mime/multipart} layout without carriage returns, as Karpenter's
 * (pkg/providers/amifamily/bootstrap/mime): boundary {@code //}, LF line ends, and a line end between each part's
 * content and the next delimiter, which belongs to the delimiter, so every part reads back exactly.
 */
public record MimeArchive(List<Part> parts) {
    public static final String BOUNDARY = "//";
    public static final String NODE_CONFIG = "application/node.eks.aws";
    public static final String SHELL = "text/x-shellscript; charset=\"us-ascii\"";
    private static final Pattern MIME_START = Pattern.compile("(?i)(mime-version|content-type)[ \\t]*:.*", Pattern.DOTALL);

    /**
     * One part. {@code transferEncoding} is null for text, which is written as it is, or {@code base64} for bytes
     * that are not text, whose {@code content} is then their base64.
     */
    public record Part(String contentType, String content, String transferEncoding) {
        public Part(String contentType, String content) {
            this(contentType, content, null);
        }
    }

    public MimeArchive {
        parts = List.copyOf(parts);
    }

    /** Whether a user data text is already a MIME document (starts with a MIME header, in any case). */
    public static boolean looksLikeMime(String text) {
        return MIME_START.matcher(text.strip()).matches();
    }

    /** Parses a multipart document. @throws IllegalArgumentException when it is not multipart or unreadable */
    public static MimeArchive parse(String text) {
        try {
            MimeTokenStream top = stream(RecursionMode.M_RAW, text.getBytes(StandardCharsets.UTF_8));
            boolean multipart = false;
            List<Part> parts = new ArrayList<>();
            for (EntityState s = top.getState(); s != EntityState.T_END_OF_STREAM; s = top.next()) {
                if (s == EntityState.T_START_MULTIPART) {
                    multipart = true;
                } else if (s == EntityState.T_RAW_ENTITY) {
                    parts.add(part(top.getInputStream().readAllBytes()));
                }
            }
            if (!multipart) {
                throw new IllegalArgumentException("userData is MIME but not multipart with a boundary");
            }
            return new MimeArchive(parts);
        } catch (IOException | MimeException e) {
            throw new IllegalArgumentException("userData MIME: " + e.getMessage(), e);
        }
    }

    /** One body part: its headers, then its body, decoded unless it is itself multipart. */
    private static Part part(byte[] raw) throws IOException, MimeException {
        MimeTokenStream p = stream(RecursionMode.M_FLAT, raw);
        String type = null;
        byte[] body = new byte[0];
        String mimeType = "text/plain";
        for (EntityState s = p.getState(); s != EntityState.T_END_OF_STREAM; s = p.next()) {
            if (s == EntityState.T_FIELD && p.getField().getName().equalsIgnoreCase("Content-Type")) {
                type = p.getField().getBody().strip();
            } else if (s == EntityState.T_BODY) {
                mimeType = p.getBodyDescriptor().getMimeType();
                InputStream in = mimeType.startsWith("multipart/") ? p.getInputStream() : p.getDecodedInputStream();
                body = in.readAllBytes();
            }
        }
        String contentType = type == null || type.isEmpty() ? mimeType : type;
        try {
            String content = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
            return new Part(contentType, content.replace("\r\n", "\n"));
        } catch (CharacterCodingException notText) {
            return new Part(contentType, Base64.getMimeEncoder(76, new byte[] {'\n'}).encodeToString(body), "base64");
        }
    }

    private static MimeTokenStream stream(RecursionMode mode, byte[] bytes) {
        MimeTokenStream s = new MimeTokenStream(MimeConfig.PERMISSIVE);
        s.setRecursionMode(mode);
        s.parse(new ByteArrayInputStream(bytes));
        return s;
    }

    /** The document text (not yet base64). */
    public String serialize() {
        StringBuilder out = new StringBuilder("MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"")
                .append(BOUNDARY).append("\"\n\n");
        for (int i = 0; i < parts.size(); i++) {
            Part p = parts.get(i);
            out.append(i == 0 ? "" : "\n").append("--").append(BOUNDARY).append("\nContent-Type: ").append(p.contentType())
                    .append('\n');
            if (p.transferEncoding() != null) {
                out.append("Content-Transfer-Encoding: ").append(p.transferEncoding()).append('\n');
            }
            out.append('\n').append(p.content());
        }
        return out.append("\n--").append(BOUNDARY).append("--\n").toString();
    }
}
