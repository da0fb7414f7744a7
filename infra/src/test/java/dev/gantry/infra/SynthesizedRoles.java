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
 * {@value Ec2State#ACCOUNT}, us-east-1, the node role and instance profile named as the stub knows them. Each
 * function (by its short name, from the Lambda function's description "Gantry &lt;name&gt;") maps to the statements
 * of the role its Role property names, so the evaluated policy is the deployed one, not a copy.
 */
final class SynthesizedRoles {
    static final String REGION = "us-east-1";
    private static final Map<String, SynthesizedRoles> BY_CLUSTER = new java.util.HashMap<>();

    final CfnTemplate template;
    final Map<String, List<Statement>> statementsByFunction = new TreeMap<>();
    final Map<String, String> roleByFunction = new TreeMap<>();
    final int resourceCount;
    final int statementCount;

    @SuppressWarnings("unchecked")
    private SynthesizedRoles(String cluster) {
        SynthFixture fixture = SynthFixture.environmentAgnostic(Map.of("clusterName", cluster));
        Map<String, Object> json = (Map<String, Object>) (Map<?, ?>) fixture.template.toJSON();
        CfnTemplate plain = new CfnTemplate(json, "aws", REGION, Ec2State.ACCOUNT, Map.of());
        String profile = plain.resourcesOfType("AWS::IAM::InstanceProfile").getFirst();
        // With no names given, a Ref resolves to the logical id.
        String nodeRole = (String) ((List<?>) plain.property(profile, "Roles")).getFirst();
        template = new CfnTemplate(json, "aws", REGION, Ec2State.ACCOUNT,
                Map.of(profile, Ec2State.NODE_INSTANCE_PROFILE, nodeRole, Ec2State.NODE_ROLE));
        for (String fn : template.resourcesOfType("AWS::Lambda::Function")) {
            Object description = template.property(fn, "Description");
            if (description instanceof String d && d.startsWith("Gantry ") && d.indexOf(' ', "Gantry ".length()) < 0) {
                String name = d.substring("Gantry ".length());
                String role = template.functionRole(fn);
                roleByFunction.put(name, role);
                statementsByFunction.put(name, template.roleStatements(role));
            }
        }
        resourceCount = TemplateQueries.map(json.get("Resources")).size();
        statementCount = template.resourcesOfType("AWS::IAM::Policy").stream()
                .mapToInt(p -> TemplateQueries.list(TemplateQueries.map(template.property(p, "PolicyDocument"))
                        .get("Statement")).size()).sum();
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
