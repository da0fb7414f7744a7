package dev.gantry.testing.iam;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One statement of an identity policy, parsed from its JSON (as maps and lists) after every intrinsic function has
 * been resolved ({@link CfnTemplate}). Elements other than Sid, Effect, Action, NotAction, Resource, NotResource and
 * Condition are rejected (Principal belongs to resource policies), as are policy variables ({@code ${...}}), so a
 * construct this evaluator does not model fails loudly instead of being guessed at.
 */
public record Statement(String sid, boolean allow, List<String> actions, boolean notAction, List<String> resources,
                        boolean notResource, Map<String, Map<String, List<String>>> conditions) {
    private static final Set<String> ELEMENTS = Set.of("Sid", "Effect", "Action", "NotAction", "Resource",
            "NotResource", "Condition");

    public Statement {
        actions = List.copyOf(actions);
        resources = List.copyOf(resources);
    }

    @SuppressWarnings("unchecked")
    public static Statement parse(Map<String, Object> json) {
        for (String element : json.keySet()) {
            if (!ELEMENTS.contains(element)) {
                throw new IllegalArgumentException("statement element " + element + " is not supported: " + json);
            }
        }
        String effect = String.valueOf(json.get("Effect"));
        if (!effect.equals("Allow") && !effect.equals("Deny")) {
            throw new IllegalArgumentException("Effect must be Allow or Deny: " + json);
        }
        boolean notAction = json.containsKey("NotAction");
        boolean notResource = json.containsKey("NotResource");
        if (notAction == json.containsKey("Action") || notResource == json.containsKey("Resource")) {
            throw new IllegalArgumentException("a statement needs exactly one of Action/NotAction and of "
                    + "Resource/NotResource: " + json);
        }
        List<String> actions = strings(json.get(notAction ? "NotAction" : "Action"));
        List<String> resources = strings(json.get(notResource ? "NotResource" : "Resource"));
        Map<String, Map<String, List<String>>> conditions = new LinkedHashMap<>();
        Object condition = json.get("Condition");
        if (condition != null) {
            ((Map<String, Object>) condition).forEach((op, keys) -> {
                Map<String, List<String>> byKey = new LinkedHashMap<>();
                ((Map<String, Object>) keys).forEach((k, v) -> byKey.put(k, strings(v)));
                conditions.put(op, byKey);
            });
        }
        return new Statement((String) json.get("Sid"), effect.equals("Allow"), actions, notAction, resources,
                notResource, conditions);
    }

    /** Whether the statement applies to the request: action, resource and every condition match. */
    public boolean appliesTo(IamRequest request) {
        boolean action = actions.stream().anyMatch(a -> Wildcards.matches(a, request.action(), true));
        boolean resource = resources.stream().anyMatch(r -> Wildcards.arnMatches(r, request.resource()));
        return action != notAction && resource != notResource && Conditions.hold(conditions, request);
    }

    private static List<String> strings(Object value) {
        List<String> out = new ArrayList<>();
        for (Object o : value instanceof List<?> l ? l : List.of(value)) {
            if (!(o instanceof String) && !(o instanceof Boolean) && !(o instanceof Number)) {
                throw new IllegalArgumentException("unresolved value in a policy (resolve intrinsics first): " + o);
            }
            String s = String.valueOf(o);
            if (s.contains("${")) {
                throw new IllegalArgumentException("policy variables are not supported: " + s);
            }
            out.add(s);
        }
        return out;
    }
}
