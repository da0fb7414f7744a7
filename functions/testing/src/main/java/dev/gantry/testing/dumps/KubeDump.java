package dev.gantry.testing.dumps;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cluster dump as {@code kubectl get nodes,pods,pdb -A -o yaml} (or {@code -o json}) prints it: a {@code v1 List}
 * of objects. Objects are plain maps built by {@link DumpNode}, {@link DumpPod}, {@link DumpPdb} (or by hand), so a test
 * can write exactly the fields it means, and {@link ClusterDumpGenerator} can write 45 MB of them.
 */
public final class KubeDump {
    private final List<Map<String, Object>> items = new ArrayList<>();

    public KubeDump add(Map<String, Object> object) {
        items.add(object);
        return this;
    }

    /**
     * Adds {@code object} (a NodePool, a CapacityBuffer, a Deployment, ... as a person wrote it) as the API server
     * returns it: with {@code resourceVersion}, a uid and the {@code managedFields} of the tool that applied it.
     */
    @SuppressWarnings("unchecked")
    public KubeDump addServed(Map<String, Object> object, String resourceVersion) {
        Map<String, Object> copy = new LinkedHashMap<>(object);
        Map<String, Object> meta = new LinkedHashMap<>((Map<String, Object>) copy.getOrDefault("metadata", Map.of()));
        meta.put("resourceVersion", resourceVersion);
        meta.put("uid", java.util.UUID.nameUUIDFromBytes((copy.get("kind") + "/" + meta.get("namespace") + "/"
                + meta.get("name")).getBytes(StandardCharsets.UTF_8)).toString());
        meta.put("managedFields", List.of(Map.of("manager", "argocd-controller", "operation", "Apply",
                "apiVersion", String.valueOf(copy.get("apiVersion")), "time", "2026-11-30T09:00:00Z", "fieldsType", "FieldsV1",
                "fieldsV1", Map.of("f:spec", Map.of()))));
        copy.put("metadata", meta);
        return add(copy);
    }

    public KubeDump add(DumpNode n) {
        return add(n.toMap());
    }

    public KubeDump add(DumpPod p) {
        return add(p.toMap());
    }

    public KubeDump add(DumpPdb b) {
        return add(b.toMap());
    }

    public List<Map<String, Object>> items() {
        return items;
    }

    /**
     * The same objects as plain {@code kubectl get -o yaml} prints them since Kubernetes 1.21: without
     * {@code metadata.managedFields} (which {@code --show-managed-fields} adds back).
     */
    public KubeDump withoutManagedFields() {
        KubeDump out = new KubeDump();
        for (Map<String, Object> o : items) {
            Map<String, Object> copy = new LinkedHashMap<>(o);
            if (o.get("metadata") instanceof Map<?, ?> meta) {
                Map<String, Object> m = new LinkedHashMap<>();
                meta.forEach((k, v) -> m.put(String.valueOf(k), v));
                m.remove("managedFields");
                copy.put("metadata", m);
            }
            out.add(copy);
        }
        return out;
    }

    /** The dump as kubectl's YAML. */
    public String yaml() {
        StringWriter w = new StringWriter();
        writeYaml(w);
        return w.toString();
    }

    /** Every object as a document of its own, separated by {@code ---} (as several {@code kubectl get} runs, joined). */
    public String yamlDocuments() {
        StringWriter w = new StringWriter();
        for (Map<String, Object> o : items) {
            w.write("---\n");
            new KubectlYaml(w).document(o);
        }
        return w.toString();
    }

    public Path writeYaml(Path file) {
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
            writeYaml(w);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    public Path writeJson(Path file) {
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
            // kubectl indents JSON by four spaces and keeps each object's fields in their API order.
            DefaultPrettyPrinter pp = new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("    ", "\n"))
                    .withArrayIndenter(new DefaultIndenter("    ", "\n"));
            new ObjectMapper().writer(pp).writeValue(w, list());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    private void writeYaml(Writer w) {
        new KubectlYaml(w).document(list());
    }

    private Map<String, Object> list() {
        Map<String, Object> list = new LinkedHashMap<>();
        list.put("apiVersion", "v1");
        list.put("items", items);
        list.put("kind", "List");
        list.put("metadata", Map.of("resourceVersion", ""));
        return list;
    }
}
