package dev.gantry.testing.iam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CfnTemplateTest {
    private static final String TEMPLATE = """
            {"Resources": {
              "NodeRole": {"Type": "AWS::IAM::Role", "Properties": {}},
              "Named": {"Type": "AWS::IAM::Role", "Properties": {"RoleName": "explicit-name",
                 "Policies": [{"PolicyName": "inline", "PolicyDocument": {"Statement": [
                   {"Effect": "Allow", "Action": "sqs:SendMessage", "Resource": {"Fn::GetAtt": ["Queue", "Arn"]}}]}}]}},
              "Queue": {"Type": "AWS::SQS::Queue", "Properties": {}},
              "Table": {"Type": "AWS::DynamoDB::Table", "Properties": {}},
              "Fn": {"Type": "AWS::Lambda::Function", "Properties": {"Role": {"Fn::GetAtt": ["Named", "Arn"]}}},
              "FnAlias": {"Type": "AWS::Lambda::Alias", "Properties": {"FunctionName": {"Ref": "Fn"}, "Name": "live",
                 "FunctionVersion": {"Fn::GetAtt": ["FnVersion", "Version"]}}},
              "FnVersion": {"Type": "AWS::Lambda::Version", "Properties": {"FunctionName": {"Ref": "Fn"}}},
              "Token": {"Type": "AWS::SecretsManager::Secret", "Properties": {}},
              "Policy": {"Type": "AWS::IAM::Policy", "Properties": {"Roles": [{"Ref": "Named"}],
                "PolicyDocument": {"Statement": [
                  {"Effect": "Allow", "Action": "iam:PassRole", "Resource": {"Fn::GetAtt": ["NodeRole", "Arn"]}},
                  {"Effect": "Allow", "Action": "dynamodb:GetItem", "Resource": [
                    {"Fn::GetAtt": ["Table", "Arn"]}, {"Fn::Join": ["", [{"Fn::GetAtt": ["Table", "Arn"]}, "/index/*"]]}]},
                  {"Effect": "Allow", "Action": "ec2:DescribeImages", "Resource": "*",
                   "Condition": {"StringEquals": {"aws:RequestedRegion": {"Ref": "AWS::Region"}}}},
                  {"Effect": "Allow", "Action": "ec2:TerminateInstances",
                   "Resource": {"Fn::Sub": "arn:${AWS::Partition}:ec2:${AWS::Region}:${AWS::AccountId}:instance/*"}}]}}},
              "Other": {"Type": "AWS::IAM::Policy", "Properties": {"Roles": [{"Ref": "NodeRole"}],
                "PolicyDocument": {"Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}}}
            }}""";

    @SuppressWarnings("unchecked")
    private static CfnTemplate template() throws Exception {
        return new CfnTemplate(new ObjectMapper().readValue(TEMPLATE, Map.class), "aws", "us-east-1", "123456789012",
                Map.of("NodeRole", "gantry-node-role", "Table", "gantry-state", "Fn", "sweep", "Token", "gantry-token"));
    }

    @Test
    void pseudoParametersAndArnsOfTemplateResourcesResolveToConcreteValues() throws Exception {
        CfnTemplate t = template();
        List<Statement> statements = t.roleStatements("Named");
        assertThat(statements).hasSize(5);
        assertThat(statements).flatExtracting(Statement::resources).containsExactly(
                "arn:aws:sqs:us-east-1:123456789012:Queue",
                "arn:aws:iam::123456789012:role/gantry-node-role",
                "arn:aws:dynamodb:us-east-1:123456789012:table/gantry-state",
                "arn:aws:dynamodb:us-east-1:123456789012:table/gantry-state/index/*",
                "*",
                "arn:aws:ec2:us-east-1:123456789012:instance/*");
        assertThat(statements.get(3).conditions()).isEqualTo(
                Map.of("StringEquals", Map.of("aws:RequestedRegion", List.of("us-east-1"))));
    }

    @Test
    void aRoleGetsOnlyThePoliciesAttachedToItAndAFunctionNamesItsRole() throws Exception {
        CfnTemplate t = template();
        assertThat(t.roleStatements("NodeRole")).singleElement().satisfies(s -> assertThat(s.actions()).containsExactly("s3:*"));
        assertThat(t.functionRole("Fn")).isEqualTo("Named");
        assertThat(t.physicalName("Named")).isEqualTo("explicit-name");
        assertThat(t.physicalName("Queue")).isEqualTo("Queue");
        assertThat(t.resolve(Map.of("Ref", "Queue"), "test"))
                .isEqualTo("https://sqs.us-east-1.amazonaws.com/123456789012/Queue");
    }

    @Test
    void anAliasIsItsFunctionsQualifiedArnAndASecretItsFullArn() throws Exception {
        CfnTemplate t = template();
        assertThat(t.resolve(Map.of("Ref", "FnAlias"), "test"))
                .isEqualTo("arn:aws:lambda:us-east-1:123456789012:function:sweep:live");
        assertThat(t.resolve(Map.of("Ref", "FnVersion"), "test"))
                .isEqualTo("arn:aws:lambda:us-east-1:123456789012:function:sweep:1");
        assertThat(t.resolve(Map.of("Fn::GetAtt", List.of("Fn", "Arn")), "test"))
                .isEqualTo("arn:aws:lambda:us-east-1:123456789012:function:sweep");
        assertThat(t.resolve(Map.of("Ref", "Token"), "test"))
                .isEqualTo("arn:aws:secretsmanager:us-east-1:123456789012:secret:gantry-token" + CfnTemplate.SECRET_SUFFIX);
    }

    @Test
    void unsupportedIntrinsicsAndUnknownReferencesAreErrorsThatSayWhere() throws Exception {
        CfnTemplate t = template();
        assertThatThrownBy(() -> t.resolve(Map.of("Fn::If", List.of("c", "a", "b")), "Policy.X"))
                .hasMessageContaining("Fn::If").hasMessageContaining("Policy.X");
        assertThatThrownBy(() -> t.resolve(Map.of("Ref", "Missing"), "Policy.Y")).hasMessageContaining("Missing");
        assertThatThrownBy(() -> t.resolve(Map.of("Fn::GetAtt", List.of("Queue", "QueueName")), "Z"))
                .hasMessageContaining("QueueName");
    }
}
