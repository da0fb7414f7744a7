package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No import cycle between Gantry's packages, read from the sources as a reader sees them: every {@code import} and
 * every fully qualified name in a production file (Javadoc included) makes its package depend on the named one, so a
 * constant the compiler inlines or a type named only in a comment counts, as it does for the reader. Every module's
 * packages then form a layering a newcomer can follow from the top (handlers, CLI, simulator) down to the domain.
 */
class ImportCyclesTest {

    private static final Path FUNCTIONS = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern PACKAGE = Pattern.compile("^package (dev\\.gantry[\\w.]*);", Pattern.MULTILINE);
    /** A reference to a class: lowercase package segments, then a capitalised simple name. */
    private static final Pattern REFERENCE = Pattern.compile("\\b(dev\\.gantry(?:\\.[a-z][a-z0-9_]*)+)\\.[A-Z]");

    @Test
    void readsEveryModulesSources() {
        Map<String, Map<String, String>> graph = graph();
        assertThat(graph.keySet().stream().map(p -> p.split("\\.")[2]).distinct())
                .contains("core", "config", "kube", "aws", "handlers", "simulator", "cli", "testing");
    }

    @Test
    void packagesImportEachOtherWithoutCycles() {
        Map<String, Map<String, String>> graph = graph();
        List<String> cycles = new ArrayList<>();
        for (Set<String> component : stronglyConnected(graph)) {
            StringBuilder s = new StringBuilder("cycle among " + component + ":");
            for (String from : component) {
                graph.get(from).forEach((to, where) -> {
                    if (component.contains(to)) {
                        s.append("\n  ").append(from).append(" -> ").append(to).append(" (").append(where).append(')');
                    }
                });
            }
            cycles.add(s.toString());
        }
        assertThat(cycles).as("package import cycles").isEmpty();
    }

    @Test
    void findsACycleWhenThereIsOne() {
        Map<String, Map<String, String>> graph = new TreeMap<>();
        graph.put("a", Map.of("b", "A.java:3"));
        graph.put("b", Map.of("c", "B.java:3"));
        graph.put("c", Map.of("a", "C.java:3"));
        graph.put("d", Map.of("a", "D.java:3"));
        assertThat(stronglyConnected(graph)).containsExactly(new TreeSet<>(Set.of("a", "b", "c")));
    }

    /** Package to the packages it names, each with one place that names it (file:line). */
    private static Map<String, Map<String, String>> graph() {
        Map<String, Map<String, String>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(FUNCTIONS)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/main/java/")).toList()) {
                String text = Files.readString(file);
                Matcher p = PACKAGE.matcher(text);
                if (!p.find()) {
                    continue;
                }
                String from = p.group(1);
                Map<String, String> edges = graph.computeIfAbsent(from, k -> new TreeMap<>());
                Matcher r = REFERENCE.matcher(text);
                while (r.find()) {
                    String to = r.group(1);
                    if (!to.equals(from)) {
                        int line = (int) text.substring(0, r.start()).lines().count();
                        edges.putIfAbsent(to, FUNCTIONS.relativize(file) + ":" + line);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return graph;
    }

    /** Tarjan's strongly connected components with more than one package. */
    private static List<Set<String>> stronglyConnected(Map<String, Map<String, String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> components = new ArrayList<>();
        int[] counter = {0};
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, onStack, components, counter);
            }
        }
        return components;
    }

    private static void connect(String v, Map<String, Map<String, String>> graph, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, Set<String> onStack,
                                List<Set<String>> components, int[] counter) {
        index.put(v, counter[0]);
        low.put(v, counter[0]++);
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Map.of()).keySet()) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, onStack, components, counter);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                components.add(component);
            }
        }
    }
}
