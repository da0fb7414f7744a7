package dev.gantry.infra;

import dev.gantry.testing.Ec2State;
import dev.gantry.testing.iam.CfnTemplate;
import dev.gantry.testing.iam.PolicyEvaluator;
import dev.gantry.testing.iam.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The synthesized stack as the AWS stub's world sees it: cluster {@value Ec2State#CLUSTER} (or another), account
 * {@value Ec2State#ACCOUNT}, us-east-1, the node role and instance profile named as the stub knows them (and the role
 * {@value #NODE_ROLES} named with {@code -c nodeRoles=}), the table
 * {@value #TABLE} and each queue by its role ({@code termination}, {@code provisioning.fifo}). Each
 * function (by its short name, from the Lambda function's description "Gantry &lt;name&gt;") maps to the statements
 * of the role its Role property names, so the evaluated policy is the deployed one, not a copy.
 */
final class SynthesizedRoles {
    static final String REGION = "us-east-1";
    /** Physical names given to the template's table and queues: {@code gantry-state}, {@code termination}, ... */
    static final String TABLE = "gantry-state";
    /** The name the tests give the webhook token secret. */
    static final String SECRET = "gantry-token";
    private static final java.util.regex.Pattern QUEUE_ID =
            java.util.regex.Pattern.compile("Gantry(\\w+?)Queue(DeadLetters)?[0-9A-F]{8}");
    private static final Map<String, SynthesizedRoles> BY_CLUSTER = new java.util.HashMap<>();
    /** {@code -c nodeRoles=}: the role the aws module's NodeRoleProfilesTest launches with, besides the stack's own. */
    static final String NODE_ROLES = "KarpenterNodeRole-demo";

    final CfnTemplate template;
    final Map<String, List<Statement>> statementsByFunction = new TreeMap<>();
    final Map<String, String> roleByFunction = new TreeMap<>();
    final int resourceCount;
    /** The ARN of the deploy bundle's S3 object ({@code GANTRY_DEPLOY_BUNDLE} of the attach function, its only reader). */
    final String configObjectArn;
    final int statementCount;

    @SuppressWarnings("unchecked")
    private SynthesizedRoles(String cluster) {
        SynthFixture fixture = SynthFixture.environmentAgnostic(Map.of("clusterName", cluster, "nodeRoles", NODE_ROLES));
        Map<String, Object> json = (Map<String, Object>) (Map<?, ?>) fixture.template.toJSON();
        CfnTemplate plain = new CfnTemplate(json, "aws", REGION, Ec2State.ACCOUNT, Map.of());
        // The stack's own profile is the one whose role is the stack's (with no names given, a Ref resolves to the
        // logical id); a named role's profile holds the role's name.
        List<String> roles = plain.resourcesOfType("AWS::IAM::Role");
        String profile = plain.resourcesOfType("AWS::IAM::InstanceProfile").stream()
                .filter(p -> roles.contains(((List<?>) plain.property(p, "Roles")).getFirst())).findFirst().orElseThrow();
        String nodeRole = (String) ((List<?>) plain.property(profile, "Roles")).getFirst();
        Map<String, String> names = new java.util.HashMap<>(
                Map.of(profile, Ec2State.NODE_INSTANCE_PROFILE, nodeRole, Ec2State.NODE_ROLE));
        plain.resourcesOfType("AWS::DynamoDB::Table").forEach(t -> names.put(t, TABLE));
        for (String queue : plain.resourcesOfType("AWS::SQS::Queue")) {
            java.util.regex.Matcher m = QUEUE_ID.matcher(queue);
            if (m.matches()) {
                names.put(queue, m.group(1).toLowerCase(java.util.Locale.ROOT) + (m.group(2) == null ? "" : "-dlq")
                        + (Boolean.TRUE.equals(plain.property(queue, "FifoQueue")) ? ".fifo" : ""));
            }
        }
        // The tests' names: each function by its short name (function:sweep, its alias function:sweep:live), the
        // webhook token secret as "gantry-token" (ARN secret:gantry-token-AbCdEf).
        for (String fn : plain.resourcesOfType("AWS::Lambda::Function")) {
            if (plain.property(fn, "Description") instanceof String d && d.startsWith("Gantry ")
                    && d.indexOf(' ', "Gantry ".length()) < 0) {
                names.put(fn, d.substring("Gantry ".length()));
            }
        }
        plain.resourcesOfType("AWS::SecretsManager::Secret").forEach(secret -> names.put(secret, SECRET));
        template = new CfnTemplate(json, "aws", REGION, Ec2State.ACCOUNT, names);
        for (String fn : template.resourcesOfType("AWS::Lambda::Function")) {
            Object description = template.property(fn, "Description");
            if (description instanceof String d && d.startsWith("Gantry ") && d.indexOf(' ', "Gantry ".length()) < 0) {
                String name = d.substring("Gantry ".length());
                String role = template.functionRole(fn);
                roleByFunction.put(name, role);
                statementsByFunction.put(name, template.roleStatements(role));
            }
        }
        configObjectArn = configObjectArn(template, json);
        resourceCount = TemplateQueries.map(json.get("Resources")).size();
        statementCount = template.resourcesOfType("AWS::IAM::Policy").stream()
                .mapToInt(p -> TemplateQueries.list(TemplateQueries.map(template.property(p, "PolicyDocument"))
                        .get("Statement")).size()).sum();
    }

    /** Resolves only the bundle variable: the attach function's other variables (the Function URL) do not resolve here. */
    private static String configObjectArn(CfnTemplate template, Map<String, Object> json) {
        Map<String, Object> resources = TemplateQueries.map(json.get("Resources"));
        for (String fn : template.resourcesOfType("AWS::Lambda::Function")) {
            Map<String, Object> props = TemplateQueries.map(TemplateQueries.map(resources.get(fn)).get("Properties"));
            Object vars = props.get("Environment") instanceof Map<?, ?> e ? e.get("Variables") : null;
            Object raw = vars instanceof Map<?, ?> v ? v.get("GANTRY_DEPLOY_BUNDLE") : null;
            if (raw != null && template.resolve(raw, fn + ".GANTRY_DEPLOY_BUNDLE") instanceof String url
                    && url.startsWith("s3://")) {
                return "arn:aws:s3:::" + url.substring("s3://".length());
            }
        }
        throw new AssertionError("no function of the template has GANTRY_DEPLOY_BUNDLE");
    }

    /** The stack for the stub's cluster, {@value Ec2State#CLUSTER}. */
    static SynthesizedRoles shared() {
        return forCluster(Ec2State.CLUSTER);
    }

    /** The stack deployed for {@code cluster} (synthesized once per cluster). */
    static synchronized SynthesizedRoles forCluster(String cluster) {
        return BY_CLUSTER.computeIfAbsent(cluster, SynthesizedRoles::new);
    }

    /** The evaluator over the policies of {@code function}'s role. @throws AssertionError for an unknown function */
    PolicyEvaluator evaluator(String function) {
        List<Statement> statements = statementsByFunction.get(function);
        if (statements == null) {
            throw new AssertionError("no function \"" + function + "\" in the template; functions: "
                    + statementsByFunction.keySet());
        }
        return new PolicyEvaluator(statements);
    }
}
