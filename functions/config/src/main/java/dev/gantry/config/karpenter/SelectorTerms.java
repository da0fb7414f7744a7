package dev.gantry.config.karpenter;

import dev.gantry.config.yaml.YamlObject;
import dev.gantry.core.model.NodeClass.AmiSelectorTerm;
import dev.gantry.core.model.NodeClass.SelectorTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads subnet, security group and AMI selector terms under the EC2NodeClass CRD's rules. */
final class SelectorTerms {
    private static final Set<String> ALIAS_FAMILIES = Set.of("al2", "al2023", "bottlerocket", "windows2019", "windows2022", "windows2025");
    /** Karpenter's CRD caps each selector term list at 30. */
    private static final int MAX_TERMS = 30;

    private SelectorTerms() {
    }

    /** Subnet ({@code withName} false) or security group ({@code withName} true) terms; required and non-empty. */
    static List<SelectorTerm> read(YamlObject spec, String field, String idPrefix, boolean withName) {
        List<SelectorTerm> out = new ArrayList<>();
        if (!spec.require(field)) {
            return out;
        }
        List<YamlObject> items = spec.objects(field);
        if (items.isEmpty()) {
            spec.error(field, "at least one term is required");
        } else if (items.size() > MAX_TERMS) {
            spec.error(field, "at most " + MAX_TERMS + " terms are allowed, got " + items.size());
        }
        for (YamlObject t : items) {
            t.allow(withName ? Set.of("id", "name", "tags") : Set.of("id", "tags"));
            String id = t.string("id");
            String name = withName ? t.string("name") : null;
            Map<String, String> tags = tags(t);
            String fields = withName ? "id, name, tags" : "id, tags";
            if (id == null && name == null && tags == null) {
                t.errorHere(null, "expected at least one of " + fields);
            } else if (id != null && (name != null || tags != null)) {
                t.error("id", "id cannot be combined with other fields in a term");
            }
            if (id != null && !id.matches(idPrefix + "-[0-9a-z]+")) {
                t.error("id", "'" + id + "' is not a " + idPrefix + "-… id");
            }
            out.add(new SelectorTerm(id, name, tags));
        }
        return out;
    }

    static List<AmiSelectorTerm> ami(YamlObject spec) {
        List<AmiSelectorTerm> out = new ArrayList<>();
        List<YamlObject> items = spec.objects("amiSelectorTerms");
        for (YamlObject t : items) {
            t.allow("alias", "id", "name", "owner", "tags", "ssmParameter");
            String alias = t.string("alias");
            String id = t.string("id");
            String name = t.string("name");
            String ssm = t.string("ssmParameter");
            Map<String, String> tags = tags(t);
            if (alias == null && id == null && name == null && tags == null && ssm == null) {
                t.errorHere(null, "expected at least one of alias, id, name, tags, ssmParameter");
            } else if (alias != null && (id != null || name != null || tags != null || ssm != null || t.has("owner"))) {
                t.error("alias", "alias cannot be combined with other fields in a term");
            } else if (alias != null && items.size() > 1) {
                t.error("alias", "alias cannot be combined with other amiSelectorTerms");
            } else if (id != null && (name != null || tags != null || ssm != null || t.has("owner"))) {
                t.error("id", "id cannot be combined with other fields in a term");
            }
            if (alias != null) {
                String family = alias.contains("@") ? alias.substring(0, alias.indexOf('@')) : null;
                if (family == null || alias.endsWith("@")) {
                    t.error("alias", "'" + alias + "' is not an alias (family@version, e.g. al2023@latest)");
                } else if (!ALIAS_FAMILIES.contains(family)) {
                    t.error("alias", "family '" + family + "' is not supported, must be one of " + new java.util.TreeSet<>(ALIAS_FAMILIES));
                } else if (family.startsWith("windows") && !alias.endsWith("@latest")) {
                    t.error("alias", "windows families may only use the latest version");
                }
            }
            out.add(new AmiSelectorTerm(alias, id, name, t.string("owner"), tags, ssm));
        }
        return out;
    }

    private static Map<String, String> tags(YamlObject t) {
        Map<String, String> tags = t.stringMap("tags");
        if (tags != null) {
            for (var e : tags.entrySet()) {
                if (e.getKey().isEmpty() || e.getValue() == null || e.getValue().isEmpty()) {
                    t.error("tags", "empty tag keys or values aren't supported");
                    break;
                }
            }
        }
        return tags;
    }
}
