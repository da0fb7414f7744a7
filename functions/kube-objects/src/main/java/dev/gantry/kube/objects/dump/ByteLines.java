package dev.gantry.kube.objects.dump;

import java.io.IOException;
import java.io.InputStream;

/**
 * The lines of a stream as byte slices of one buffer, without decoding them: the reader only needs to see where
 * kubectl's items begin, and each item is decoded by the worker that parses it. A line is valid until the next call.
 */
final class ByteLines {
    private final InputStream in;
    private byte[] buf = new byte[1 << 20];
    private int start;
    private int end;
    private boolean eof;
    private int off;
    private int len;

    ByteLines(InputStream in) {
        this.in = in;
    }

    /** Moves to the next line ({@code \n} or {@code \r\n} ended, or the last one); false at the end. */
    boolean next() throws IOException {
        while (true) {
            for (int i = start; i < end; i++) {
                if (buf[i] == '\n') {
                    off = start;
                    len = i - start;
                    if (len > 0 && buf[i - 1] == '\r') {
                        len--;
                    }
                    start = i + 1;
                    return true;
                }
            }
            if (eof) {
                if (start < end) {
                    off = start;
                    len = end - start;
                    start = end;
                    return true;
                }
                return false;
            }
            int scanned = end - start;
            if (start > 0) {
                System.arraycopy(buf, start, buf, 0, scanned);
                start = 0;
                end = scanned;
            }
            if (end == buf.length) {
                buf = java.util.Arrays.copyOf(buf, buf.length * 2);
            }
            int n = in.read(buf, end, buf.length - end);
            if (n < 0) {
                eof = true;
            } else {
                end += n;
            }
        }
    }

    byte[] buf() {
        return buf;
    }

    int off() {
        return off;
    }

    int len() {
        return len;
    }

    boolean is(String s) {
        if (len != s.length()) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (buf[off + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    boolean startsWith(String s) {
        if (len < s.length()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (buf[off + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The byte at column {@code i}, or -1 past the line's end. */
    int at(int i) {
        return i < len ? buf[off + i] : -1;
    }

    boolean blank() {
        for (int i = 0; i < len; i++) {
            byte b = buf[off + i];
            if (b != ' ' && b != '\t') {
                return false;
            }
        }
        return true;
    }
}
