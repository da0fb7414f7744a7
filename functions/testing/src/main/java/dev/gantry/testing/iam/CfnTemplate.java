package dev.gantry.testing.iam;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A synthesized CloudFormation template read as a deployed stack would see it: pseudo parameters
 * ({@code AWS::Partition}, {@code AWS::Region}, {@code AWS::AccountId}, {@code AWS::URLSuffix},
 * {@code AWS::StackName}) take the given values, and {@code Ref}/{@code Fn::GetAtt ... Arn} of the template's
 * resources become the concrete names and ARNs CloudFormation would return (the explicit name property if set, else
 * a physical name given in {@code names}, else the logical id). {@code Fn::Join}, {@code Fn::Sub},
 * {@code Fn::Select} and {@code Fn::Split} are evaluated; any other intrinsic is an error naming where it was met.
 */
public final class CfnTemplate {
    /** The random suffix a secret's ARN gets here ({@code Ref} of a secret); the AWS stub's secrets have it too. */
    public static final String SECRET_SUFFIX = "-AbCdEf";
    private static final Pattern SUB = Pattern.compile("\\$\\{([^}!][^}]*)}");
    private final Map<String, Object> resources;
    private final String partition;
    private final String region;
    private final String account;
    private final Map<String, String> names;

    /**
     * @param template the template JSON as maps and lists
     * @param names    physical names by logical id, for resources the template does not name itself
     */
    @SuppressWarnings("unchecked")
    public CfnTemplate(Map<String, Object> template, String partition, String region, String account,
                       Map<String, String> names) {
        this.resources = (Map<String, Object>) template.getOrDefault("Resources", Map.of());
        this.partition = partition;
        this.region = region;
        this.account = account;
        this.names = Map.copyOf(names);
    }

    /** Logical ids of the resources of {@code type}, in template order. */
    public List<String> resourcesOfType(String type) {
        return resources.entrySet().stream().filter(e -> type.equals(map(e.getValue()).get("Type")))
                .map(Map.Entry::getKey).toList();
    }

    /** A resource's property, resolved; null when absent. */
    public Object property(String logicalId, String name) {
        Object value = properties(logicalId).get(name);
        return value == null ? null : resolve(value, logicalId + "." + name);
    }

    /** The physical name CloudFormation gives the resource. */
    public String physicalName(String logicalId) {
        Map<String, Object> props = properties(logicalId);
        for (String p : List.of("RoleName", "InstanceProfileName", "FunctionName", "TableName", "QueueName",
                "LogGroupName", "Name")) {
            if (props.get(p) != null) {
                return String.valueOf(resolve(props.get(p), logicalId + "." + p));
            }
        }
        return names.getOrDefault(logicalId, logicalId);
    }

    /**
     * Every policy statement granted to the role {@code roleLogicalId}: its inline {@code Policies} and each
     * {@code AWS::IAM::Policy} attached to it, resolved and parsed. Managed policy ARNs cannot be read from the
     * template and are not included.
     */
    @SuppressWarnings("unchecked")
    public List<Statement> roleStatements(String roleLogicalId) {
        List<Statement> out = new ArrayList<>();
        for (Object p : list(properties(roleLogicalId).get("Policies"))) {
            addStatements(out, map(p).get("PolicyDocument"), roleLogicalId + ".Policies");
        }
        for (String policy : resourcesOfType("AWS::IAM::Policy")) {
            boolean attached = list(properties(policy).get("Roles")).stream()
                    .anyMatch(r -> r instanceof Map<?, ?> m && roleLogicalId.equals(m.get("Ref")));
            if (attached) {
                addStatements(out, properties(policy).get("PolicyDocument"), policy);
            }
        }
        return out;
    }

    /** The logical id of the role a Lambda function runs as (its {@code Role} property's GetAtt target). */
    public String functionRole(String functionLogicalId) {
        Object role = properties(functionLogicalId).get("Role");
        if (role instanceof Map<?, ?> m && m.get("Fn::GetAtt") instanceof List<?> l) {
            return (String) l.getFirst();
        }
        throw new IllegalArgumentException(functionLogicalId + " has a Role that is not a GetAtt of a template role: "
                + role);
    }

    /** Resolves every intrinsic function in {@code node}; {@code where} names it in errors. */
    @SuppressWarnings("unchecked")
    public Object resolve(Object node, String where) {
        if (node instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(o -> out.add(resolve(o, where)));
            return out;
        }
        if (!(node instanceof Map<?, ?>)) {
            return node;
        }
        Map<String, Object> m = (Map<String, Object>) node;
        if (m.size() == 1) {
            String fn = m.keySet().iterator().next();
            Object arg = m.get(fn);
            switch (fn) {
                case "Ref" -> { return ref((String) arg, where); }
                case "Fn::GetAtt" -> {
                    List<Object> a = arg instanceof List<?> l ? (List<Object>) l
                            : List.of(((String) arg).split("\\.", 2));
                    return getAtt((String) a.get(0), (String) a.get(1), where);
                }
                case "Fn::Join" -> {
                    List<Object> a = (List<Object>) arg;
                    List<String> parts = new ArrayList<>();
                    for (Object part : list(resolve(a.get(1), where))) {
                        parts.add(String.valueOf(part));
                    }
                    return String.join((String) a.get(0), parts);
                }
                case "Fn::Sub" -> { return sub(arg, where); }
                case "Fn::Select" -> {
                    List<Object> a = (List<Object>) arg;
                    int index = Integer.parseInt(String.valueOf(resolve(a.get(0), where)));
                    return list(resolve(a.get(1), where)).get(index);
                }
                case "Fn::Split" -> {
                    List<Object> a = (List<Object>) arg;
                    return List.of(String.valueOf(resolve(a.get(1), where)).split(Pattern.quote((String) a.get(0)), -1));
                }
                default -> {
                    if (fn.startsWith("Fn::") || fn.equals("Condition")) {
                        throw new IllegalArgumentException("intrinsic " + fn + " at " + where + " is not supported");
                    }
                }
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, resolve(v, where + "." + k)));
        return out;
    }

    private Object ref(String name, String where) {
        return switch (name) {
            case "AWS::Partition" -> partition;
            case "AWS::Region" -> region;
            case "AWS::AccountId" -> account;
            case "AWS::URLSuffix" -> "amazonaws.com";
            case "AWS::StackName" -> "GantryStack";
            default -> {
                String type = type(name, where);
                String physical = physicalName(name);
                yield switch (type) {
                    case "AWS::SQS::Queue" -> "https://sqs." + region + ".amazonaws.com/" + account + "/" + physical;
                    case "AWS::SecretsManager::Secret" -> "arn:" + partition + ":secretsmanager:" + region + ":" + account
                            + ":secret:" + physical + SECRET_SUFFIX;
                    // Ref of an alias or version is its qualified ARN: function:<name>:<alias or version number>.
                    case "AWS::Lambda::Alias" -> qualifiedFunctionArn(name,
                            String.valueOf(resolve(properties(name).get("Name"), name + ".Name")), where);
                    case "AWS::Lambda::Version" -> qualifiedFunctionArn(name, "1", where);
                    default -> physical;
                };
            }
        };
    }

    private String qualifiedFunctionArn(String id, String qualifier, String where) {
        String function = String.valueOf(resolve(properties(id).get("FunctionName"), id + ".FunctionName"));
        String unqualified = function.startsWith("arn:") ? function
                : "arn:" + partition + ":lambda:" + region + ":" + account + ":function:" + function;
        return unqualified + ":" + qualifier;
    }

    private String getAtt(String id, String attribute, String where) {
        String type = type(id, where);
        String n = physicalName(id);
        String regional = ":" + region + ":" + account + ":";
        if (!attribute.equals("Arn")) {
            throw new IllegalArgumentException("Fn::GetAtt " + id + "." + attribute + " at " + where + " is not supported");
        }
        return "arn:" + partition + switch (type) {
            case "AWS::IAM::Role" -> ":iam::" + account + ":role/" + n;
            case "AWS::IAM::InstanceProfile" -> ":iam::" + account + ":instance-profile/" + n;
            case "AWS::DynamoDB::Table" -> ":dynamodb" + regional + "table/" + n;
            case "AWS::SQS::Queue" -> ":sqs" + regional + n;
            case "AWS::Logs::LogGroup" -> ":logs" + regional + "log-group:" + n + ":*";
            case "AWS::Lambda::Function" -> ":lambda" + regional + "function:" + n;
            case "AWS::Events::Rule" -> ":events" + regional + "rule/" + n;
            case "AWS::SecretsManager::Secret" -> ":secretsmanager" + regional + "secret:" + n + SECRET_SUFFIX;
            default -> throw new IllegalArgumentException("Fn::GetAtt " + id + ".Arn of a " + type + " at " + where
                    + " is not supported");
        };
    }

    private String sub(Object arg, String where) {
        String text;
        Map<String, Object> vars = Map.of();
        if (arg instanceof List<?> l) {
            text = (String) l.get(0);
            @SuppressWarnings("unchecked")
            Map<String, Object> given = (Map<String, Object>) l.get(1);
            vars = given;
        } else {
            text = (String) arg;
        }
        Matcher m = SUB.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String var = m.group(1);
            Object value;
            if (vars.containsKey(var)) {
                value = resolve(vars.get(var), where);
            } else if (var.contains(".") && !var.startsWith("AWS::")) {
                String[] parts = var.split("\\.", 2);
                value = getAtt(parts[0], parts[1], where);
            } else {
                value = ref(var, where);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(String.valueOf(value)));
        }
        m.appendTail(out);
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private void addStatements(List<Statement> out, Object document, String where) {
        Map<String, Object> doc = (Map<String, Object>) resolve(document, where);
        for (Object s : list(doc.get("Statement"))) {
            out.add(Statement.parse((Map<String, Object>) s));
        }
    }

    private String type(String logicalId, String where) {
        Object r = resources.get(logicalId);
        if (r == null) {
            throw new IllegalArgumentException("reference to " + logicalId + " at " + where
                    + ": no such resource (parameters are not supported)");
        }
        return (String) map(r).get("Type");
    }

    private Map<String, Object> properties(String logicalId) {
        Object r = resources.get(logicalId);
        if (r == null) {
            throw new IllegalArgumentException("no resource " + logicalId);
        }
        return map(map(r).getOrDefault("Properties", Map.of()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    private static List<?> list(Object o) {
        return o == null ? List.of() : o instanceof List<?> l ? l : List.of(o);
    }
}
