package dev.gantry.infra;

import static dev.gantry.infra.TemplateQueries.json;
import static dev.gantry.infra.TemplateQueries.list;
import static dev.gantry.infra.TemplateQueries.map;
import static dev.gantry.infra.TemplateQueries.ref;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class GantryStackTest {
    private static Template template;
    private static TemplateQueries q;

    @BeforeAll
    static void synth() {
        template = SynthFixture.shared().template;
        q = new TemplateQueries(template);
    }

    @Test
    void everyGantryFunctionIsJava25OnArm64WithSnapStartAndJsonLogs() {
        Map<String, Map<String, Object>> fns = gantryFunctions();
        assertThat(fns).hasSize(6);
        assertThat(fns.values().stream().map(p -> (String) p.get("Handler")).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder(
                        "dev.gantry.handlers.PendingPodWebhookHandler::handleRequest",
                        "dev.gantry.handlers.ProvisioningQueueHandler::handleRequest",
                        "dev.gantry.handlers.InterruptionQueueHandler::handleRequest",
                        "dev.gantry.handlers.TerminationQueueHandler::handleRequest",
                        "dev.gantry.handlers.SweepHandler::handleRequest",
                        "dev.gantry.handlers.attach.ClusterAttachHandler::handleRequest");
        for (Map<String, Object> p : fns.values()) {
            assertThat(p.get("Runtime")).isEqualTo("java25");
            assertThat(p.get("Architectures")).isEqualTo(List.of("arm64"));
            assertThat(p.get("SnapStart")).isEqualTo(Map.of("ApplyOn", "PublishedVersions"));
            assertThat(map(p.get("LoggingConfig"))).containsEntry("LogFormat", "JSON").containsKey("LogGroup");
            Map<String, Object> env = map(map(p.get("Environment")).get("Variables"));
            assertThat(env).containsKeys("GANTRY_CLUSTER_NAME", "GANTRY_TABLE_NAME",
                    "GANTRY_PROVISIONING_QUEUE_URL", "GANTRY_INTERRUPTION_QUEUE_URL", "GANTRY_TERMINATION_QUEUE_URL",
                    "GANTRY_NODE_ROLE_NAME", "GANTRY_INSTANCE_PROFILE_NAME")
                    .containsEntry("GANTRY_CLUSTER_NAME", SynthFixture.CLUSTER)
                    // C2 for the sweep only: its run at scale is seconds of CPU (SweepScaleBenchmark); C1 for the short ones.
                    .containsEntry("JAVA_TOOL_OPTIONS", p.get("Handler").equals("dev.gantry.handlers.SweepHandler::handleRequest")
                            ? "-XX:+TieredCompilation" : "-XX:+TieredCompilation -XX:TieredStopAtLevel=1");
        }
    }

    @Test
    void onlyTheWebhookAndAttachKnowTheSecretAndOnlyAttachKnowsTheDeployBundle() {
        Map<String, Map<String, Object>> byHandler = gantryFunctions().values().stream().collect(Collectors.toMap(
                p -> ((String) p.get("Handler")).replaceAll(".*\\.(\\w+)::.*", "$1"),
                p -> map(map(p.get("Environment")).get("Variables"))));
        assertThat(byHandler.get("PendingPodWebhookHandler")).containsKey("GANTRY_WEBHOOK_SECRET_ARN")
                .doesNotContainKeys("GANTRY_CONFIG", "GANTRY_DEPLOY_BUNDLE");
        // The cluster is the source of truth: no handler reads the bundle (S3-SHARED decision 1).
        for (String h : List.of("ProvisioningQueueHandler", "InterruptionQueueHandler", "TerminationQueueHandler",
                "SweepHandler")) {
            assertThat(byHandler.get(h)).doesNotContainKeys("GANTRY_CONFIG", "GANTRY_DEPLOY_BUNDLE",
                    "GANTRY_WEBHOOK_SECRET_ARN");
        }
        assertThat(byHandler.get("ClusterAttachHandler")).doesNotContainKey("GANTRY_CONFIG");
        assertThat(json(byHandler.get("ClusterAttachHandler").get("GANTRY_DEPLOY_BUNDLE"))).contains("s3://");
        assertThat(byHandler.values()).allSatisfy(env -> assertThat(env).doesNotContainKey("GANTRY_NODE_POOLS"));
    }

    @Test
    void namedNodePoolsReachAttachTheWebhookAndTheHandlers() {
        Map<String, Map<String, Object>> fns = SynthFixture.with(Map.of("nodePools", "batch, gpu")).template
                .findResources("AWS::Lambda::Function");
        long withPools = fns.values().stream().map(r -> map(map(map(r.get("Properties")).get("Environment")).get("Variables")))
                .filter(env -> "batch,gpu".equals(env.get("GANTRY_NODE_POOLS"))).count();
        assertThat(withPools).isEqualTo(6);
    }

    @Test
    void provisionerAndSweepAreSerialisedAndWebhookIsCapped() {
        Map<String, Object> reserved = gantryFunctions().values().stream()
                .filter(p -> p.containsKey("ReservedConcurrentExecutions"))
                .collect(Collectors.toMap(p -> (String) p.get("Handler"), p -> p.get("ReservedConcurrentExecutions")));
        assertThat(reserved).containsOnly(
                Map.entry("dev.gantry.handlers.SweepHandler::handleRequest", 1),
                Map.entry("dev.gantry.handlers.ProvisioningQueueHandler::handleRequest", 1),
                Map.entry("dev.gantry.handlers.PendingPodWebhookHandler::handleRequest", 10));
    }

    @Test
    void theWebhookMaySendOnlyToTheProvisioningQueue() {
        List<Object> statements = q.properties("AWS::IAM::Policy").entrySet().stream()
                .filter(e -> e.getKey().startsWith("GantryWebhookRoleDefaultPolicy"))
                .flatMap(e -> list(map(e.getValue().get("PolicyDocument")).get("Statement")).stream()).toList();
        List<String> sqs = statements.stream().filter(st -> json(map(st).get("Action")).contains("sqs:"))
                .map(st -> json(map(st).get("Resource"))).toList();
        assertThat(sqs).singleElement().asString().contains("GantryProvisioningQueue")
                .doesNotContain("GantryTerminationQueue", "GantryInterruptionQueue");
    }

    @Test
    void webhookGetsItsHintBucketFromTheSettings() {
        Map<String, Object> env = gantryFunctions().values().stream()
                .filter(p -> String.valueOf(p.get("Handler")).contains("PendingPodWebhookHandler"))
                .map(p -> map(map(p.get("Environment")).get("Variables"))).findFirst().orElseThrow();
        assertThat(env).containsEntry("GANTRY_HINT_BUCKET_SECONDS", "1");
    }

    @Test
    void eachFunctionHasALiveAliasOnAPublishedVersion() {
        Map<String, Map<String, Object>> aliases = q.properties("AWS::Lambda::Alias");
        Set<String> versions = q.properties("AWS::Lambda::Version").keySet();
        assertThat(aliases).hasSize(6);
        for (Map<String, Object> a : aliases.values()) {
            assertThat(a.get("Name")).isEqualTo("live");
            assertThat(versions).contains(ref(a.get("FunctionVersion")));
        }
    }

    @Test
    void queueEventSourcesAttachToAliasesWithPartialBatchFailures() {
        Map<String, Map<String, Object>> mappings = q.properties("AWS::Lambda::EventSourceMapping");
        Set<String> aliases = q.properties("AWS::Lambda::Alias").keySet();
        assertThat(mappings).hasSize(3);
        for (Map<String, Object> m : mappings.values()) {
            String fn = json(m.get("FunctionName"));
            assertThat(fn).endsWith(":live\"]]}");
            assertThat(aliases.stream().anyMatch(fn::contains)).isTrue();
            assertThat(m.get("FunctionResponseTypes")).isEqualTo(List.of("ReportBatchItemFailures"));
        }
    }

    @Test
    void everyQueueIsEncryptedSslOnlyAndWorkQueuesDeadLetterAfterTheirReceives() {
        Map<String, Map<String, Object>> queues = q.properties("AWS::SQS::Queue");
        assertThat(queues).hasSize(6);
        queues.values().forEach(p -> assertThat(p.get("SqsManagedSseEnabled")).isEqualTo(true));
        List<Map<String, Object>> work = queues.values().stream().filter(p -> p.containsKey("RedrivePolicy")).toList();
        assertThat(work).hasSize(3);
        for (Map<String, Object> p : work) {
            Map<String, Object> redrive = map(p.get("RedrivePolicy"));
            // The provisioning queue's failed runs come back within 20 s, so it allows 8 (DeploymentSettings).
            assertThat(redrive.get("maxReceiveCount")).isEqualTo(Boolean.TRUE.equals(p.get("FifoQueue")) ? 8 : 5);
            assertThat(queues).containsKey(ref(redrive.get("deadLetterTargetArn")));
        }
        for (Map<String, Object> policy : q.properties("AWS::SQS::QueuePolicy").values()) {
            assertThat(json(policy)).contains("\"aws:SecureTransport\":\"false\"");
        }
    }

    @Test
    void provisioningQueueIsFifoWithExplicitDeduplicationAndAFifoDeadLetterQueue() {
        Map<String, Map<String, Object>> queues = q.properties("AWS::SQS::Queue");
        Map<String, Object> fifo = queues.values().stream()
                .filter(p -> Boolean.TRUE.equals(p.get("FifoQueue")) && p.containsKey("RedrivePolicy"))
                .findFirst().orElseThrow();
        assertThat(fifo).containsEntry("ContentBasedDeduplication", false).containsEntry("DelaySeconds", 1);
        String dlq = ref(map(fifo.get("RedrivePolicy")).get("deadLetterTargetArn"));
        assertThat(queues.get(dlq)).containsEntry("FifoQueue", true);
    }

    @Test
    void interruptionQueueOutlivesItsRetriesAndAdmitsOnlyOurRules() {
        String interruption = interruptionQueueId();
        // 5 receives x 3 min visibility: a 5-minute retention expired failing messages before the dead-letter queue.
        assertThat(q.properties("AWS::SQS::Queue").get(interruption)).containsEntry("MessageRetentionPeriod", 3600);
        Map<String, Object> policy = q.properties("AWS::SQS::QueuePolicy").values().stream()
                .filter(p -> json(p.get("Queues")).contains(interruption)).findFirst().orElseThrow();
        List<Object> eventStatements = list(map(policy.get("PolicyDocument")).get("Statement")).stream()
                .filter(s -> json(s).contains("events.amazonaws.com")).toList();
        assertThat(eventStatements).hasSize(5).allSatisfy(s -> {
            assertThat(list(map(s).get("Action"))).contains("sqs:SendMessage").noneMatch(a -> a.equals("sqs:*"));
            assertThat(map(s)).containsEntry("Effect", "Allow");
            assertThat(json(map(s).get("Condition"))).contains("aws:SourceArn");
        });
    }

    @Test
    void interruptionRulesHaveTheExactPatternsTheHandlerDispatchesOn() {
        String interruption = interruptionQueueId();
        List<Map<String, Object>> patterns = q.properties("AWS::Events::Rule").values().stream()
                .filter(p -> p.containsKey("EventPattern"))
                .peek(p -> assertThat(ref(map(list(p.get("Targets")).get(0)).get("Arn"))).isEqualTo(interruption))
                .map(p -> map(p.get("EventPattern"))).toList();
        assertThat(patterns).containsExactlyInAnyOrder(
                Map.of("source", List.of("aws.ec2"), "detail-type", List.of("EC2 Spot Instance Interruption Warning")),
                Map.of("source", List.of("aws.ec2"), "detail-type", List.of("EC2 Instance Rebalance Recommendation")),
                Map.of("source", List.of("aws.ec2"), "detail-type", List.of("EC2 Instance State-change Notification")),
                Map.of("source", List.of("aws.health"), "detail-type", List.of("AWS Health Event"),
                        "detail", Map.of("service", List.of("EC2"), "eventTypeCategory", List.of("scheduledChange"))),
                Map.of("source", List.of("aws.ec2"),
                        "detail-type", List.of("EC2 Capacity Reservation Instance Interruption Warning")));
    }

    @Test
    void sweepRunsEveryMinuteOnItsAliasWithoutRetries() {
        Map<String, Object> schedule = q.properties("AWS::Events::Rule").values().stream()
                .filter(p -> p.containsKey("ScheduleExpression")).findFirst().orElseThrow();
        assertThat(schedule.get("ScheduleExpression")).isEqualTo("rate(1 minute)");
        Map<String, Object> target = map(list(schedule.get("Targets")).get(0));
        assertThat(q.properties("AWS::Lambda::Alias")).containsKey(ref(target.get("Arn")));
        assertThat(target.get("RetryPolicy")).isEqualTo(Map.of("MaximumRetryAttempts", 0));
    }

    @Test
    void theStackOutputsTheTableAndClusterThatGantryStatusLooksFor() {
        // The names are the CLI's StackLocator.TABLE_OUTPUT and CLUSTER_OUTPUT: `gantry status --cluster demo` reads them
        // from stack Gantry-demo.
        Map<String, Map<String, Object>> outputs = template.findOutputs("*");
        assertThat(outputs).containsOnlyKeys("TableName", "ClusterName", "NodeRoleName");
        String nodeRole = q.properties("AWS::IAM::Role").entrySet().stream()
                .filter(e -> json(e.getValue().get("AssumeRolePolicyDocument")).contains("ec2.amazonaws.com"))
                .map(Map.Entry::getKey).findFirst().orElseThrow();
        assertThat(outputs.get("NodeRoleName").get("Value")).isEqualTo(Map.of("Ref", nodeRole));
        assertThat(outputs.get("ClusterName").get("Value")).isEqualTo(SynthFixture.CLUSTER);
        String table = template.findResources("AWS::DynamoDB::Table").keySet().iterator().next();
        assertThat(outputs.get("TableName").get("Value")).isEqualTo(Map.of("Ref", table));
        assertThat(GantryStack.nameFor(SynthFixture.CLUSTER)).isEqualTo("Gantry-demo");
    }

    @Test
    void stateTableHasKeysIndexTtlPitrAndIsRetained() {
        template.hasResource("AWS::DynamoDB::Table", Map.of(
                "DeletionPolicy", "Retain",
                "Properties", Map.of(
                        "KeySchema", List.of(Map.of("AttributeName", "pk", "KeyType", "HASH"),
                                Map.of("AttributeName", "sk", "KeyType", "RANGE")),
                        "BillingMode", "PAY_PER_REQUEST",
                        "PointInTimeRecoverySpecification", Map.of("PointInTimeRecoveryEnabled", true),
                        "SSESpecification", Map.of("SSEEnabled", true),
                        "TimeToLiveSpecification", Map.of("AttributeName", "ttl", "Enabled", true),
                        "GlobalSecondaryIndexes", List.of(Map.of("IndexName", "byInstanceId",
                                "KeySchema", List.of(Map.of("AttributeName", "instanceId", "KeyType", "HASH")),
                                "Projection", Map.of("ProjectionType", "ALL"))))));
    }

    @Test
    void webhookHasAnUnauthenticatedUrlOnItsAliasAndAGeneratedAlphanumericToken() {
        template.hasResourceProperties("AWS::Lambda::Url", Map.of("AuthType", "NONE", "Qualifier", "live"));
        template.hasResourceProperties("AWS::SecretsManager::Secret", Map.of("GenerateSecretString",
                Match.objectLike(Map.of("ExcludePunctuation", true, "PasswordLength", 48))));
    }

    @Test
    void nodeRoleHasTheWorkerPoliciesAnInstanceProfileAndAnEc2LinuxAccessEntry() {
        Map<String, Object> nodeRole = q.properties("AWS::IAM::Role").values().stream()
                .filter(p -> json(p.get("AssumeRolePolicyDocument")).contains("ec2.amazonaws.com"))
                .findFirst().orElseThrow();
        assertThat(json(nodeRole.get("ManagedPolicyArns"))).contains("AmazonEKSWorkerNodePolicy",
                "AmazonEC2ContainerRegistryPullOnly", "AmazonEKS_CNI_Policy", "AmazonSSMManagedInstanceCore");
        template.resourceCountIs("AWS::IAM::InstanceProfile", 1);
        template.hasResourceProperties("AWS::EKS::AccessEntry", Map.of("ClusterName", SynthFixture.CLUSTER,
                "Type", "EC2_LINUX"));
    }

    /**
     * {@code -c nodeRoles=}: an instance profile for each existing role (never a change to the role, never an access
     * entry: the role already joins the cluster as Karpenter's nodes did), PassRole for it on the provisioner only, and
     * the role=profile pairs in every function's environment. Without the key, none of it.
     */
    @Test
    void namedNodeRolesGetAnInstanceProfileEachAndMayBePassedByTheProvisioner() {
        Template named = SynthFixture.with(Map.of("nodeRoles",
                "KarpenterNodeRole-demo, arn:aws:iam::111122223333:role/team/gpu-nodes")).template;
        TemplateQueries nq = new TemplateQueries(named);

        List<String> profileRoles = nq.properties("AWS::IAM::InstanceProfile").values().stream()
                .map(p -> json(p.get("Roles"))).toList();
        assertThat(profileRoles).hasSize(3).anySatisfy(r -> assertThat(r).isEqualTo("[\"KarpenterNodeRole-demo\"]"))
                .anySatisfy(r -> assertThat(r).isEqualTo("[\"gpu-nodes\"]"));
        named.resourceCountIs("AWS::IAM::Role", q.properties("AWS::IAM::Role").size());
        named.resourceCountIs("AWS::EKS::AccessEntry", q.properties("AWS::EKS::AccessEntry").size());
        List<String> passRoles = nq.properties("AWS::IAM::Policy").entrySet().stream()
                .flatMap(e -> list(map(e.getValue().get("PolicyDocument")).get("Statement")).stream()
                        .filter(st -> json(map(st).get("Action")).contains("iam:PassRole"))
                        .map(st -> e.getKey().replaceAll("^Gantry(\\w+?)Role.*", "$1") + " " + json(map(st).get("Resource"))))
                .toList();
        assertThat(passRoles).singleElement().satisfies(r -> assertThat(r).startsWith("Provisioner ")
                .contains("GantryNodeRole").contains(":role/KarpenterNodeRole-demo")
                .contains("arn:aws:iam::111122223333:role/team/gpu-nodes"));
        Map<String, Map<String, Object>> fns = named.findResources("AWS::Lambda::Function");
        assertThat(fns.values().stream().map(r -> map(map(map(r.get("Properties")).get("Environment")).get("Variables")))
                .filter(env -> env.containsKey("GANTRY_NODE_ROLE_PROFILES")).map(env -> json(env.get("GANTRY_NODE_ROLE_PROFILES")))
                .toList()).hasSize(6).allSatisfy(v -> assertThat(v).contains("KarpenterNodeRole-demo=").contains("gpu-nodes="));
        assertThat(gantryFunctions().values()).allSatisfy(p -> assertThat(map(map(p.get("Environment")).get("Variables")))
                .doesNotContainKey("GANTRY_NODE_ROLE_PROFILES"));
    }

    /** The bundle's class names KarpenterNodeRole-demo: a warning at synth without {@code -c nodeRoles=} naming it, none with. */
    @Test
    void aBundleClassWhoseRoleIsNotNamedAtDeployIsAWarningNotAnError() {
        List<software.amazon.awscdk.cxapi.SynthesisMessage> warnings = software.amazon.awscdk.assertions.Annotations
                .fromStack(SynthFixture.shared().stack).findWarning("*", Match.stringLikeRegexp(".*nodeRoles.*"));
        assertThat(warnings).singleElement().satisfies(w -> assertThat(json(w.getEntry().getData()))
                .contains("EC2NodeClass default names role KarpenterNodeRole-demo, which is not among -c nodeRoles: its "
                        + "nodes will run as this stack's node role (output NodeRoleName). Deploy with "
                        + "-c nodeRoles=KarpenterNodeRole-demo to launch them with it"));
        assertThat(software.amazon.awscdk.assertions.Annotations.fromStack(SynthFixture.with(Map.of("nodeRoles",
                "arn:aws:iam::111111111111:role/KarpenterNodeRole-demo")).stack)
                .findWarning("*", Match.stringLikeRegexp(".*nodeRoles.*"))).isEmpty();
    }

    @Test
    void controllerRolesJoinTheirOwnGroupsAndOnlyTheAttachRoleIsClusterAdmin() {
        List<Map<String, Object>> entries = List.copyOf(q.properties("AWS::EKS::AccessEntry").values());
        assertThat(entries).hasSize(6);
        assertThat(entries).filteredOn(e -> "STANDARD".equals(e.get("Type")) && e.containsKey("KubernetesGroups"))
                .extracting(e -> e.get("KubernetesGroups")).containsExactlyInAnyOrder(List.of("gantry:provisioner"),
                        List.of("gantry:interruption"), List.of("gantry:termination"), List.of("gantry:sweep"));
        assertThat(entries).filteredOn(e -> e.containsKey("AccessPolicies")).singleElement()
                .satisfies(e -> assertThat(json(e)).contains("AmazonEKSClusterAdminPolicy").contains("GantryAttachRole"));
    }

    @Test
    void alarmsCoverDeadLettersHandlerErrorsAndPendingPodAge() {
        List<Map<String, Object>> alarms = List.copyOf(q.properties("AWS::CloudWatch::Alarm").values());
        assertThat(alarms).filteredOn(a -> "ApproximateNumberOfMessagesVisible".equals(a.get("MetricName")))
                .hasSize(3).allSatisfy(a -> assertThat(a).containsEntry("Threshold", 0)
                        .containsEntry("ComparisonOperator", "GreaterThanThreshold"));
        assertThat(alarms).filteredOn(a -> "Errors".equals(a.get("MetricName"))).hasSize(6);
        assertThat(alarms).filteredOn(a -> "PendingPodAgeSeconds".equals(a.get("MetricName"))).singleElement()
                .satisfies(a -> assertThat(a).containsEntry("Namespace", "Gantry")
                        .containsEntry("Dimensions", List.of(Map.of("Name", "ClusterName", "Value", "demo"))));
        template.resourceCountIs("AWS::CloudWatch::Dashboard", 1);
    }

    @Test
    void everyLogGroupHasARetention() {
        assertThat(q.properties("AWS::Logs::LogGroup").values())
                .allSatisfy(p -> assertThat(p.get("RetentionInDays")).isEqualTo(30));
    }

    /** The six Gantry functions (the Provider framework's own function is not ours). */
    static Map<String, Map<String, Object>> gantryFunctions() {
        var out = new java.util.TreeMap<String, Map<String, Object>>();
        q.properties("AWS::Lambda::Function").forEach((id, p) -> {
            if (String.valueOf(p.get("Handler")).startsWith("dev.gantry.")) {
                out.put(id, p);
            }
        });
        return out;
    }

    private static String interruptionQueueId() {
        return q.properties("AWS::SQS::Queue").entrySet().stream()
                .filter(e -> e.getKey().startsWith("GantryInterruptionQueue") && !e.getKey().contains("DeadLetters")).map(Map.Entry::getKey)
                .findFirst().orElseThrow();
    }
}
