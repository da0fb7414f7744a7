package dev.gantry.simulator.world.kube;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.core.config.ConfigObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The simulated API server's store of configuration objects (NodePools and NodeClasses), as {@code kubectl apply},
 * Argo CD or the deploy-time apply write them: each write that changes an object gives it the next resourceVersion
 * (and, when its spec changed, the next generation); a write of the same object changes nothing; a delete removes it.
 * Whoever listens ({@link #onWrite}) hears of every write that changed something, in the request that made it: the
 * hook where a change hint (the admission webhook's) attaches.
 *
 * <p>Kinder than the API server: it stores any kind Gantry reads (the older {@code v1alpha5} Provisioner and
 * {@code v1beta1} objects too, which a cluster serves only while their CRDs are installed), and it checks neither the
 * CRDs' schemas nor their CEL rules (but the NodePool's transition rule between static and dynamic, which no reader of
 * one object can check): an invalid object is stored, and the reader leaves it out.
 */
public final class ConfigStore {
    /** The kinds stored here; other objects in an applied file are workloads. */
    public static final Set<String> KINDS = Set.of("NodePool", "EC2NodeClass", "NodeClass", "Provisioner", "AWSNodeTemplate",
            "NodeOverlay");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One write that changed the store: the object's {@code Kind/name}, and whether it was deleted. */
    public record Write(String key, boolean deleted) {
    }

    private final Map<String, Map<String, Object>> objects = new TreeMap<>();
    private final List<Consumer<Write>> listeners = new ArrayList<>();
    private long resourceVersion;

    /**
     * The API server's admission of a create or update of {@code objectJson}: null to admit, else the refusal's message
     * (what kubectl prints). The deployed webhook's part; a store without one admits everything.
     */
    @FunctionalInterface
    public interface Admission {
        String refusal(String operation, String objectJson);
    }

    private Admission admission = (operation, objectJson) -> null;

    /** Writes from now on go through {@code admission} first (the validating webhook, once attach registered it). */
    public void admission(Admission admission) {
        this.admission = Objects.requireNonNull(admission);
    }

    /** Tells {@code listener} of every write that changed an object. */
    public void onWrite(Consumer<Write> listener) {
        listeners.add(Objects.requireNonNull(listener));
    }

    /** Whether {@code kind} is stored here. */
    public static boolean stored(String kind) {
        return KINDS.contains(kind);
    }

    /**
     * Creates or updates each object of the configuration kinds in {@code yaml} (one or more documents, or a v1 List);
     * the others are left to the caller. Returns the {@code Kind/name} of each object admitted.
     */
    public List<String> applyYaml(String yaml) {
        List<String> written = new ArrayList<>();
        for (Object doc : new Load(LoadSettings.builder().setCodePointLimit(Integer.MAX_VALUE).build()).loadAllFromString(yaml)) {
            applyDocument(doc, written);
        }
        return written;
    }

    @SuppressWarnings("unchecked")
    private void applyDocument(Object doc, List<String> written) {
        if (!(doc instanceof Map<?, ?> m)) {
            return;
        }
        if ("List".equals(m.get("kind")) && m.get("items") instanceof List<?> items) {
            items.forEach(i -> applyDocument(i, written));
            return;
        }
        if (m.get("kind") instanceof String kind && stored(kind) && m.get("metadata") instanceof Map<?, ?> meta
                && meta.get("name") instanceof String name) {
            if (apply(kind, name, (Map<String, Object>) m) == null) {
                written.add(kind + "/" + name);
            }
        }
    }

    /**
     * Creates or updates one object; a write equal to what is stored (server fields aside) changes nothing. Returns the
     * admission's refusal (nothing stored), or null when the write was admitted.
     */
    @SuppressWarnings("unchecked")
    public String apply(String kind, String name, Map<String, Object> object) {
        String key = kind + "/" + name;
        Map<String, Object> copy = deepCopy(object);
        Map<String, Object> meta = (Map<String, Object>) copy.computeIfAbsent("metadata", k -> new LinkedHashMap<>());
        Map<String, Object> old = objects.get(key);
        long generation = 1;
        if (old != null) {
            Map<String, Object> oldMeta = (Map<String, Object>) old.get("metadata");
            generation = ((Number) oldMeta.get("generation")).longValue();
            if (withoutServerFields(old).equals(withoutServerFields(copy))) {
                return null;
            }
            if (!Objects.equals(old.get("spec"), copy.get("spec"))) {
                generation++;
            }
        }
        String json;
        try {
            json = JSON.writeValueAsString(copy);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a config object that is not JSON: " + key, e);
        }
        String refusal = old != null && "NodePool".equals(kind) && isStatic(old) != isStatic(copy)
                ? "NodePool.karpenter.sh \"" + name + "\" is invalid: spec: Invalid value: \"object\": Cannot transition NodePool "
                        + "between static (replicas set) and dynamic (replicas unset) provisioning modes" // the CRD's transition rule
                : admission.refusal(old == null ? "CREATE" : "UPDATE", json);
        if (refusal != null) {
            return refusal;
        }
        meta.put("resourceVersion", String.valueOf(++resourceVersion));
        meta.put("generation", generation);
        objects.put(key, copy);
        listeners.forEach(l -> l.accept(new Write(key, false)));
        return null;
    }

    private static boolean isStatic(Map<String, Object> object) {
        return object.get("spec") instanceof Map<?, ?> spec && spec.containsKey("replicas");
    }

    /** Deletes one object; false when there was none. */
    public boolean delete(String kind, String name) {
        String key = kind + "/" + name;
        if (objects.remove(key) == null) {
            return false;
        }
        resourceVersion++;
        listeners.forEach(l -> l.accept(new Write(key, true)));
        return true;
    }

    /** Whether an object is stored under {@code kind} and {@code name}. */
    public boolean has(String kind, String name) {
        return objects.containsKey(kind + "/" + name);
    }

    /** Every stored object, as the API server's JSON. */
    @SuppressWarnings("unchecked")
    public List<ConfigObject> list() {
        List<ConfigObject> out = new ArrayList<>();
        objects.forEach((key, o) -> {
            Map<String, Object> meta = (Map<String, Object>) o.get("metadata");
            try {
                out.add(new ConfigObject(key.substring(0, key.indexOf('/')), "", key.substring(key.indexOf('/') + 1),
                        (String) meta.get("resourceVersion"), JSON.writeValueAsString(o)));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        });
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutServerFields(Map<String, Object> o) {
        Map<String, Object> copy = deepCopy(o);
        Map<String, Object> meta = (Map<String, Object>) copy.get("metadata");
        if (meta != null) {
            meta.remove("resourceVersion");
            meta.remove("generation");
        }
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> deepCopy(Map<String, Object> o) {
        return JSON.convertValue(o, LinkedHashMap.class);
    }
}
