package dev.gantry.kube.objects.dump;

import dev.gantry.kube.objects.KubeJson;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Streams the objects of dump files, one at a time, as {@code kubectl get -o yaml} or {@code -o json} writes them: a
 * {@code v1 List} (its {@code items}), a single object, several YAML documents, or several JSON values one after
 * another. A directory is read recursively ({@code *.yaml}, {@code *.yml}, {@code *.json}, in name order); a file
 * named directly is read whatever its name, as JSON when it starts with <code>{</code> or {@code [}, else as YAML.
 * <p>
 * kubectl writes a List's items at column 0 ({@code - apiVersion: v1}), each indented two spaces below. Such a List is
 * cut into its items by lines ({@link KubectlItemText}: the blocks no mapper reads are dropped there, before any
 * parsing), and each item's bytes are handed on to be decoded and parsed on their own by snakeyaml-engine, on the
 * mapping workers: one snakeyaml-engine parser over a 100 MB List, on the reader thread, would be the slowest part of a
 * what-if. Any other YAML (a hand-written List, objects as documents) is parsed as a whole, one
 * document at a time. YAML is parsed with {@link KubeJson#YAML}'s limits and aliases refused ({@link NoAliases}).
 */
final class DumpReader {
    private final Consumer<DumpItem> sink;
    private long bytesRead;
    private long objects;

    DumpReader(Consumer<DumpItem> sink) {
        this.sink = sink;
    }

    long bytesRead() {
        return bytesRead;
    }

    long objects() {
        return objects;
    }

    /** The files {@code paths} name: files as given, directories expanded. */
    static List<Path> files(List<Path> paths) {
        List<Path> out = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isRegularFile(p)) {
                out.add(p);
            } else if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.walk(p)) {
                    s.filter(Files::isRegularFile).filter(f -> {
                        String n = f.getFileName().toString();
                        return n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json");
                    }).sorted().forEach(out::add);
                } catch (IOException | java.io.UncheckedIOException e) {
                    throw new DumpException(p + ": cannot read directory: " + e.getMessage(), e);
                }
            } else {
                throw new DumpException(p + ": no such file or directory");
            }
        }
        return out;
    }

    void read(Path file) {
        try (InputStream raw = new Counting(Files.newInputStream(file)); BufferedInputStream in = new BufferedInputStream(raw, 1 << 16)) {
            if (json(in)) {
                parse(file, KubeJson.JSON, KubeJson.JSON.createParser(in), 0);
            } else {
                new Lines(file, in).run();
            }
        } catch (JacksonException e) {
            throw new DumpException(where(file, e.getLocation(), 0) + "not " + (isJson(file) ? "JSON" : "YAML") + ": " + syntax(e), e);
        } catch (IOException e) {
            throw new DumpException(file + ": cannot read file: " + e.getMessage(), e);
        }
    }

    /** Parses a whole stream of documents, handing on each object (a List's items one by one). */
    private void parse(Path file, ObjectMapper mapper, JsonParser p, int lineOffset) {
        try (p) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.START_OBJECT) {
                    document(file, mapper, p);
                } else if (t == JsonToken.START_ARRAY) {
                    // A JSON array of objects (not what kubectl prints, but what jq often does).
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        item(ObjectItems.object(file, mapper, p));
                    }
                } else if (t != JsonToken.VALUE_NULL) {
                    throw new DumpException(where(file, p.currentTokenLocation(), lineOffset)
                            + "not a Kubernetes object: expected a mapping with apiVersion and kind, got " + p.getString());
                }
            }
        } catch (JacksonException e) {
            throw new DumpException(where(file, e.getLocation(), lineOffset) + "not " + (mapper == KubeJson.JSON ? "JSON" : "YAML")
                    + ": " + syntax(e), e);
        }
    }

    /**
     * One top-level object: a List's items are handed on one by one as they are parsed; any other object whole. Fields
     * are read in order, so a List that has its {@code kind} after {@code items} (kubectl's YAML sorts keys) streams too.
     */
    private void document(Path file, ObjectMapper mapper, JsonParser p) {
        ObjectNode envelope = mapper.createObjectNode();
        boolean streamedItems = false;
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            if (name.equals("items") && value == JsonToken.START_ARRAY) {
                streamedItems = true;
                JsonToken t;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (t == JsonToken.START_OBJECT) {
                        item(ObjectItems.object(file, mapper, p));
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                envelope.set(name, mapper.readTree(p));
            }
        }
        if (!streamedItems) {
            item(new DumpItem.Tree(file, envelope));
        }
    }

    private void item(DumpItem i) {
        objects++;
        sink.accept(i);
    }

    /**
     * YAML by lines, as bytes: each document (between {@code ---} lines) whose {@code items:} key is at column 0 with its
     * {@code - } items at column 0 too is cut into items, handed on undecoded; any other document is parsed whole.
     */
    private final class Lines {
        private final Path file;
        private final ByteLines in;
        private final Bytes doc = new Bytes();
        private int docStart = 1;
        private int line;
        private KubectlItemText item;
        private boolean inItems;
        private boolean cut;

        Lines(Path file, InputStream in) {
            this.file = file;
            this.in = new ByteLines(in);
        }

        void run() throws IOException {
            while (in.next()) {
                line++;
                if (in.is("---") || in.startsWith("--- ") || in.is("...")) {
                    endDocument();
                    docStart = line + 1;
                    continue;
                }
                int first = in.at(0);
                if (inItems) {
                    if (first == '-' && (in.len() == 1 || in.at(1) == ' ')) {
                        endItem();
                        item = new KubectlItemText(line);
                        item.line(in);
                        continue;
                    }
                    if (item == null && first == ' ' && !in.blank()) {
                        // indented items: not kubectl's layout, so the document is parsed whole after all
                        doc.drop("items: []\n".length());
                        doc.text("items:\n").line(in);
                        inItems = cut = false;
                        continue;
                    }
                    if (first == -1 || first == ' ') {
                        if (item != null) {
                            item.line(in);
                        }
                        continue;
                    }
                    if (first == '#') {
                        if (item != null) {
                            item.skipped(); // a comment at column 0: the item keeps its line numbers
                        }
                        continue;
                    }
                    endItem();
                    inItems = false;
                }
                if (!cut && in.is("items:")) {
                    // kubectl's layout: the items follow at column 0; anything else (flow style, indented items) is
                    // parsed with the rest of the document
                    inItems = cut = true;
                    doc.text("items: []\n"); // the envelope keeps its shape; its items go on by themselves
                    continue;
                }
                doc.line(in);
            }
            endDocument();
        }

        private void endItem() {
            if (item != null) {
                item(item.item(file));
                item = null;
            }
        }

        private void endDocument() {
            endItem();
            inItems = false;
            boolean wasCut = cut;
            cut = false;
            String text = KubectlItemText.decode(file, doc.toArray(), docStart);
            doc.clear();
            if (text.isBlank() || wasCut && kindOf(text).equals("List")) {
                return; // a cut List's envelope carries nothing more to read
            }
            parse(file, KubeJson.YAML, new NoAliases(KubeJson.YAML.createParser(new StringReader(text)), file, docStart - 1), docStart - 1);
        }
    }

    /** A growable byte array of whole lines. */
    private static final class Bytes {
        private byte[] b = new byte[4096];
        private int n;

        Bytes line(ByteLines l) {
            ensure(l.len() + 1);
            System.arraycopy(l.buf(), l.off(), b, n, l.len());
            n += l.len();
            b[n++] = '\n';
            return this;
        }

        Bytes text(String s) {
            byte[] t = s.getBytes(StandardCharsets.UTF_8);
            ensure(t.length);
            System.arraycopy(t, 0, b, n, t.length);
            n += t.length;
            return this;
        }

        void drop(int count) {
            n = Math.max(0, n - count);
        }

        void clear() {
            n = 0;
        }

        byte[] toArray() {
            return java.util.Arrays.copyOf(b, n);
        }

        private void ensure(int more) {
            if (n + more > b.length) {
                b = java.util.Arrays.copyOf(b, Math.max(b.length * 2, n + more));
            }
        }
    }

    /** The value of a top-level {@code kind:} line, or "" when there is none written plainly. */
    static String kindOf(String yaml) {
        int i = yaml.startsWith("kind:") ? 0 : yaml.indexOf("\nkind:");
        if (i < 0) {
            return "";
        }
        int start = yaml.indexOf(':', i) + 1;
        int end = yaml.indexOf('\n', start);
        return KubectlItemText.kindValue(end < 0 ? yaml.substring(start) : yaml.substring(start, end));
    }

    private static boolean json(BufferedInputStream in) throws IOException {
        in.mark(4096);
        try {
            for (int i = 0; i < 4096; i++) {
                int c = in.read();
                if (c < 0) {
                    return false;
                }
                if (!Character.isWhitespace(c)) {
                    return c == '{' || c == '[';
                }
            }
            return false;
        } finally {
            in.reset();
        }
    }

    private static boolean isJson(Path file) {
        return file.toString().endsWith(".json");
    }

    static String where(Path file, TokenStreamLocation l, int lineOffset) {
        return l == null || l.getLineNr() < 1 ? file + ": " : file + ":" + (l.getLineNr() + lineOffset) + ":" + l.getColumnNr() + ": ";
    }

    static String syntax(JacksonException e) {
        String m = e.getOriginalMessage() == null ? "syntax error" : e.getOriginalMessage();
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)).replaceAll("\\s+", " ").trim();
    }

    /** Counts the bytes read, for progress. */
    private final class Counting extends FilterInputStream {
        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                bytesRead++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                bytesRead += n;
            }
            return n;
        }
    }
}
