package dev.gantry.core.disruption.drift.hash;

import dev.gantry.core.model.Quantity;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Gantry's canonical form of parsed configuration values, and its digest: the input of the drift hashes. Built from
 * the model's values (defaults already applied by the records), never from the YAML text, so that formatting, key
 * order and a default written out or left implicit cannot change it.
 * <ul>
 *   <li>An object is its named fields sorted by name; a field whose value is null or an empty map or collection is
 *       left out (as Karpenter's hash ignores zero values), so adding an optional field to the form changes no hash
 *       of an object that does not set it.</li>
 *   <li>Strings are quoted with {@code "} and {@code \} escaped; maps are sorted by key; lists are sets (their
 *       elements' forms sorted: Karpenter hashes slices as sets); durations are seconds; quantities are their exact
 *       decimal value ({@code 1Gi} and {@code 1024Mi} are equal).</li>
 * </ul>
 * The digest is the first 64 bits of SHA-256 over the UTF-8 form, in hex. Changing this form or what a hash puts in
 * it changes hashes: bump the hash's version ({@link DriftHashes}) with it.
 */
final class Canonical {
    private final TreeMap<String, String> fields = new TreeMap<>();

    static Canonical object() {
        return new Canonical();
    }

    /** Adds a field (left out when null or empty). */
    Canonical with(String name, Object value) {
        String v = encode(value);
        if (v != null) {
            fields.put(name, v);
        }
        return this;
    }

    String text() {
        StringBuilder b = new StringBuilder("{");
        fields.forEach((k, v) -> b.append(quote(k)).append(':').append(v).append(','));
        if (b.length() > 1) {
            b.setLength(b.length() - 1);
        }
        return b.append('}').toString();
    }

    /** The digest of {@link #text()}: 16 hex digits. */
    String digest() {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** The value's form, or null when it is absent (null, or an empty map or collection). */
    private static String encode(Object value) {
        return switch (value) {
            case null -> null;
            case Canonical c -> c.fields.isEmpty() ? null : c.text();
            case String s -> quote(s);
            case Boolean b -> b.toString();
            case Integer i -> i.toString();
            case Long l -> l.toString();
            case Enum<?> e -> quote(e.name());
            case Duration d -> d.getSeconds() + (d.getNano() == 0 ? "" : "." + String.format("%09d", d.getNano())) + "s";
            case Quantity q -> q.value().stripTrailingZeros().toPlainString();
            case java.util.Optional<?> o -> o.map(Canonical::encode).orElse(null);
            case Map<?, ?> m -> {
                if (m.isEmpty()) {
                    yield null;
                }
                Map<String, String> sorted = new TreeMap<>();
                m.forEach((k, v) -> {
                    String e = encode(v);
                    sorted.put(String.valueOf(k), e == null ? "null" : e);
                });
                StringBuilder b = new StringBuilder("{");
                sorted.forEach((k, v) -> b.append(quote(k)).append(':').append(v).append(','));
                b.setLength(b.length() - 1);
                yield b.append('}').toString();
            }
            case Collection<?> c -> {
                if (c.isEmpty()) {
                    yield null;
                }
                List<String> items = new ArrayList<>();
                c.forEach(x -> {
                    String e = encode(x);
                    items.add(e == null ? "null" : e);
                });
                items.sort(null);
                yield "[" + String.join(",", items) + "]";
            }
            default -> throw new IllegalArgumentException("no canonical form for " + value.getClass().getName()
                    + ": give it one here, or map it to fields");
        };
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
