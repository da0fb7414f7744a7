package dev.gantry.testing;

import java.util.Map;

/** A minimal XML writer for the stub's canned responses: elements in order, text escaped, null leaves skipped. */
final class Xml {
    private final StringBuilder out = new StringBuilder();

    Xml open(String name) {
        out.append('<').append(name).append('>');
        return this;
    }

    Xml close(String name) {
        out.append("</").append(name).append('>');
        return this;
    }

    /** {@code <name>value</name>}, or nothing when the value is null (EC2 omits absent fields). */
    Xml leaf(String name, Object value) {
        if (value != null) {
            out.append('<').append(name).append('>').append(escape(value.toString())).append("</").append(name).append('>');
        }
        return this;
    }

    /** An EC2 list of strings: {@code <name><item>v</item>...</name>}. */
    Xml items(String name, Iterable<String> values) {
        open(name);
        values.forEach(v -> leaf("item", v));
        return close(name);
    }

    /** An EC2 {@code tagSet} of key/value items. */
    Xml tagSet(Map<String, String> tags) {
        open("tagSet");
        tags.forEach((k, v) -> open("item").leaf("key", k).leaf("value", v).close("item"));
        return close("tagSet");
    }

    Xml raw(String xml) {
        out.append(xml);
        return this;
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;").replace("'", "&apos;");
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
