package dev.gantry.infra;

import dev.gantry.config.deployment.ClusterManifests;
import dev.gantry.config.deployment.ConsolidationVariables;
import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.config.deployment.EventSourceSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.Peer;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.Subnet;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.ec2.VpcAttributes;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.Schedule;
import software.amazon.awscdk.services.events.targets.LambdaFunction;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.EventSourceMapping;
import software.amazon.awscdk.services.lambda.FunctionUrl;
import software.amazon.awscdk.services.lambda.FunctionUrlAuthType;
import software.amazon.awscdk.services.lambda.FunctionUrlOptions;
import software.amazon.awscdk.services.lambda.eventsources.SqsEventSource;
import software.amazon.awscdk.services.secretsmanager.Secret;
import software.amazon.awscdk.services.secretsmanager.SecretStringGenerator;
import software.constructs.Construct;

/**
 * Everything Gantry needs in one AWS account to autoscale one EKS cluster: state table, work queues, EventBridge
 * rules, the six functions with their own least-privilege roles, node role and instance profile, cluster access,
 * the attach custom resource, and the dashboard and alarms.
 *
 * @throws SynthInputException from the constructor when a jar is missing or the YAML does not validate
 */
public final class GantryAutoscaler extends Construct {
    static final String HANDLERS = "dev.gantry.handlers.";

    private final Map<String, GantryFunction> functions;
    private final FunctionUrl webhookUrl;
    private final ClusterAttach attach;
    private final StateTable state;
    private final NodeIdentity nodes;

    public GantryAutoscaler(Construct scope, String id, GantryAutoscalerProps props) {
        super(scope, id);
        String cluster = props.clusterName();
        DeploymentSettings settings = props.settings();
        ConfigBundle config = new ConfigBundle(this, "Config", props.config(), props.validator());
        StateTable state = new StateTable(this, "State", props.tableRemoval());
        this.state = state;
        // Every figure (and the reason for it) lives in DeploymentSettings, which the simulator runs too.
        WorkQueue provisioning = new WorkQueue(this, settings.provisioningQueue());
        WorkQueue interruption = new WorkQueue(this, settings.interruptionQueue());
        WorkQueue termination = new WorkQueue(this, settings.terminationQueue());
        new InterruptionRules(this, "InterruptionRules", interruption.queue());
        NodeIdentity nodes = new NodeIdentity(this, "Node", cluster, props.cniPolicy(), props.nodeRoles());
        this.nodes = nodes;
        warnOfUndeployedRoles(config.nodeClassRoles(), props.nodeRoles());
        Secret token = Secret.Builder.create(this, "WebhookToken")
                .description("Gantry webhook path token for EKS cluster " + cluster)
                .generateSecretString(SecretStringGenerator.builder().excludePunctuation(true).includeSpace(false)
                        .passwordLength(48).build())
                .build();

        Map<String, String> env = new java.util.HashMap<>(Map.of(
                "GANTRY_CLUSTER_NAME", cluster,
                "GANTRY_TABLE_NAME", state.table().getTableName(),
                "GANTRY_PROVISIONING_QUEUE_URL", provisioning.queue().getQueueUrl(),
                "GANTRY_INTERRUPTION_QUEUE_URL", interruption.queue().getQueueUrl(),
                "GANTRY_TERMINATION_QUEUE_URL", termination.queue().getQueueUrl(),
                "GANTRY_NODE_ROLE_NAME", nodes.role().getRoleName(),
                "GANTRY_INSTANCE_PROFILE_NAME", nodes.instanceProfile().getInstanceProfileName()));
        // The roles an EC2NodeClass may name besides the stack's own, with their profiles (the provisioner launches
        // with them, the sweep writes them into the EC2NodeClass status).
        if (!props.nodeRoles().isEmpty()) {
            env.put("GANTRY_NODE_ROLE_PROFILES", nodes.roleProfiles());
        }
        // Beside another autoscaler: the NodePools that are Gantry's (attach, the webhook and the handlers read it).
        if (!props.nodePools().isEmpty()) {
            env.put("GANTRY_NODE_POOLS", String.join(",", props.nodePools()));
        }
        // The cluster is the only source of truth for configuration: the handlers read NodePools, EC2NodeClasses and
        // CapacityBuffers from it, and only attach reads the bundle, to seed the cluster at deploy.
        Map<String, String> withConfig = Map.of();
        // The sweep decides consolidation and the termination function re-validates it: both run the deployed settings.
        Map<String, String> consolidating = new java.util.HashMap<>(ConsolidationVariables.of(settings.consolidation()));
        GantryFunction.Placement placement = placement(props.network());

        GantryFunction webhook = function(FunctionSpec.of(settings.function("webhook"),
                HANDLERS + "PendingPodWebhookHandler").withEnvironment(Map.of(
                "GANTRY_WEBHOOK_SECRET_ARN", token.getSecretArn(),
                "GANTRY_HINT_BUCKET_SECONDS", String.valueOf(settings.hintDeduplicationBucket().toSeconds()))),
                props, env, placement);
        GantryFunction provisioner = function(FunctionSpec.of(settings.function("provisioner"),
                HANDLERS + "ProvisioningQueueHandler").withEnvironment(withConfig), props, env, placement);
        GantryFunction interrupter = function(FunctionSpec.of(settings.function("interruption"),
                HANDLERS + "InterruptionQueueHandler").withEnvironment(withConfig), props, env, placement);
        GantryFunction terminator = function(FunctionSpec.of(settings.function("termination"),
                HANDLERS + "TerminationQueueHandler").withEnvironment(consolidating), props, env, placement);
        GantryFunction sweep = function(FunctionSpec.of(settings.function("sweep"), HANDLERS + "SweepHandler")
                .withEnvironment(consolidating).withJit(FunctionSpec.Jit.FULL_TIERS), props, env, placement);
        // Auth NONE: the API server cannot sign SigV4. The secret path token is what authenticates it.
        webhookUrl = webhook.alias().addFunctionUrl(FunctionUrlOptions.builder()
                .authType(FunctionUrlAuthType.NONE).build());
        // Attach: everything it applies comes from its own jar (ClusterManifests) and this environment, never from
        // the invoke payload.
        GantryFunction attacher = function(FunctionSpec.of(settings.function("attach"),
                HANDLERS + "attach.ClusterAttachHandler").withEnvironment(Map.of(
                "GANTRY_WEBHOOK_URL", webhookUrl.getUrl(),
                "GANTRY_WEBHOOK_SECRET_ARN", token.getSecretArn(),
                "GANTRY_FINAL_SWEEP_FUNCTION_ARN", sweep.alias().getFunctionArn(),
                "GANTRY_FINAL_SWEEP_TIMEOUT_SECONDS",
                String.valueOf(settings.function("sweep").timeout().toSeconds()),
                "GANTRY_DEPLOY_BUNDLE", config.s3Url())), props, env, placement);

        ControllerPolicy ec2 = new ControllerPolicy(this, cluster);
        PolicyStatement table = tableStatement(state);
        // The provisioner alone records pending demand (the predicted buffers' input), with UpdateItem's atomic adds.
        PolicyStatement provisionerTable = tableStatement(state, "dynamodb:UpdateItem");
        token.grantRead(webhook.role());
        // The webhook only sends hints; node deletions reach the termination flow through the provisioner.
        provisioning.queue().grantSendMessages(webhook.role());

        provisioner.grant(ec2.launch()).grant(ec2.describe(), ec2.passNodeRoles(nodes.passableRoleArns()),
                ec2.describeCluster(), ec2.amiParameters(), ec2.pricing(), provisionerTable);
        // A node-deleted hint: the provisioner starts the node's termination flow, whose first step it queues itself.
        termination.queue().grantSendMessages(provisioner.role());
        // A run out of time sends the next run's hint to its own queue (ProvisioningQueueHandler's continuation).
        provisioning.queue().grantSendMessages(provisioner.role());
        // Interruption and termination prime SnapStart with the provisioner's primer (ProvisionerPrimer.of), which
        // reads live offerings and prices: without pricing:GetProducts every snapshot logs a denied Pricing call.
        interrupter.grant(ec2.terminate(), ec2.describe(), ec2.describeCluster(), ec2.pricing(), table);
        termination.queue().grantSendMessages(interrupter.role());
        provisioning.queue().grantSendMessages(interrupter.role());
        terminator.grant(ec2.terminate(), ec2.describe(), ec2.describeCluster(), ec2.pricing(), table);
        termination.queue().grantSendMessages(terminator.role());
        // Consolidation's validation records replacement claims and hints the provisioner to launch them.
        provisioning.queue().grantSendMessages(terminator.role());
        sweep.grant(ec2.terminate(), ec2.describe(), ec2.describeCluster(), ec2.amiParameters(), ec2.pricing(),
                table);
        sweep.grant(ec2.collectLaunchTemplates());
        sweep.grant(ec2.instanceStatus()); // EC2 status checks, read each sweep
        // Adoption of Karpenter's instances (the migration): Gantry's tags on them, then its own grants apply.
        sweep.grant(ec2.adopt());
        provisioning.queue().grantSendMessages(sweep.role());
        termination.queue().grantSendMessages(sweep.role());
        // DescribeCluster: the endpoint, and computeConfig (EKS Auto Mode, which attach refuses to fight); the bundle.
        attacher.grant(ec2.describeCluster(), config.readStatement());
        token.grantRead(attacher.role());
        sweep.alias().grantInvoke(attacher.role());

        functions = Map.of("webhook", webhook, "provisioner", provisioner, "interruption", interrupter,
                "termination", terminator, "sweep", sweep, "attach", attacher);
        Map<String, GantryFunction> controllers = new LinkedHashMap<>();
        ClusterManifests.CONTROLLERS.forEach(name -> controllers.put(name, functions.get(name)));
        attach = new ClusterAttach(this, "ClusterAttach", cluster, attacher, controllers, props.tokenRotation());

        // Triggers wait for the attach step on create (their functions need RBAC first) and go before it on
        // delete, so no provisioner run or scheduled sweep races the final sweep.
        for (WorkQueue q : List.of(provisioning, interruption, termination)) {
            EventSourceSettings es = q.settings().eventSource();
            SqsEventSource source = SqsEventSource.Builder.create(q.queue()).batchSize(es.batchSize())
                    .maxBatchingWindow(es.maxBatchingWindow().isZero() ? null
                            : WorkQueue.seconds(es.maxBatchingWindow()))
                    .maxConcurrency(es.maxConcurrency())
                    .reportBatchItemFailures(true).build();
            GantryFunction function = functions.get(q.settings().consumer());
            Alias consumer = function.alias();
            consumer.addEventSource(source);
            // The event source's consume grant covers it too, but the handler calls ChangeMessageVisibility itself (each
            // invocation holds its records only for its own time; a failed record comes back in seconds): granted in
            // its own right, so it does not hang on how the function is triggered.
            q.queue().grant(function.role(), "sqs:ChangeMessageVisibility");
            consumer.getNode().getChildren().stream().filter(c -> c instanceof EventSourceMapping)
                    .forEach(m -> m.getNode().addDependency(attach.resource()));
        }
        Rule schedule = Rule.Builder.create(this, "SweepSchedule")
                .description("Gantry sweep for EKS cluster " + cluster)
                .schedule(Schedule.rate(Duration.seconds(settings.sweepRate().toSeconds())))
                // A missed tick is covered by the next one; retries would only stack sweeps up.
                .targets(List.of(LambdaFunction.Builder.create(sweep.alias()).retryAttempts(0).build()))
                .build();
        schedule.getNode().addDependency(attach.resource());
        new Observability(this, "Observability", cluster,
                List.of(webhook, provisioner, interrupter, terminator, sweep, attacher));
        List<String> deletable = List.of("instance");
        GantrySuppressions.controllerRole(provisioner.role(), ControllerPolicy.CREATED_TYPES, true, true);
        GantrySuppressions.controllerRole(interrupter.role(), deletable, false, false);
        GantrySuppressions.controllerRole(terminator.role(), deletable, false, false);
        GantrySuppressions.controllerRole(sweep.role(), List.of("instance", "launch-template"), false, true);
        GantrySuppressions.nodeRole(nodes.role(), nodes.managedPolicyNames());
        GantrySuppressions.webhookToken(token);
    }

    /**
     * A warning at synth and deploy for each EC2NodeClass of the bundle whose {@code spec.role} is not among
     * {@code -c nodeRoles=}: its nodes will run as the stack's own node role (the class says so once deployed, in its
     * {@code InstanceProfileReady} condition). Not an error: Karpenter YAML must deploy unchanged.
     */
    private void warnOfUndeployedRoles(Map<String, String> classRoles, List<String> nodeRoles) {
        java.util.Set<String> named = new java.util.HashSet<>();
        nodeRoles.forEach(r -> named.add(GantryAutoscalerProps.roleName(r)));
        classRoles.forEach((nodeClass, role) -> {
            String name = GantryAutoscalerProps.roleName(role);
            if (!named.contains(name)) {
                software.amazon.awscdk.Annotations.of(this).addWarningV2("gantry:node-role:" + nodeClass, "EC2NodeClass "
                        + nodeClass + " names role " + role + ", which is not among -c nodeRoles: its nodes will run as "
                        + "this stack's node role (output NodeRoleName). Deploy with -c nodeRoles=" + name
                        + " to launch them with it");
            }
        });
    }

    private GantryFunction function(FunctionSpec spec, GantryAutoscalerProps props, Map<String, String> env,
                                    GantryFunction.Placement placement) {
        return new GantryFunction(this, spec, props.assetsDir(), env, placement);
    }

    private GantryFunction.Placement placement(FunctionNetwork network) {
        if (network == null) {
            return null;
        }
        // Attributes, not a lookup: synth must work offline. Explicit subnets mean the AZ list is never consulted.
        IVpc vpc = Vpc.fromVpcAttributes(this, "Vpc", VpcAttributes.builder().vpcId(network.vpcId())
                .availabilityZones(List.of("unused")).build());
        SubnetSelection subnets = SubnetSelection.builder().subnets(network.subnetIds().stream()
                .map(s -> Subnet.fromSubnetId(this, s, s)).toList()).build();
        SecurityGroup sg = SecurityGroup.Builder.create(this, "FunctionSecurityGroup").vpc(vpc)
                .description("Gantry functions: egress to the EKS endpoint and AWS APIs, no ingress")
                .allowAllOutbound(false).build();
        // HTTPS only: the EKS endpoint and every AWS API the functions call listen on 443. DNS goes to the VPC
        // resolver, which security groups do not filter.
        sg.addEgressRule(Peer.anyIpv4(), Port.tcp(443), "HTTPS to the EKS endpoint and AWS APIs");
        return new GantryFunction.Placement(vpc, subnets, sg);
    }

    /**
     * What the claim store calls on the table and its instance-id index, nothing else: item reads, queries and
     * single-item conditional puts (it never updates, deletes or checks an item on its own: expired items go by TTL),
     * plus {@code extra} for one function's own use.
     */
    private static PolicyStatement tableStatement(StateTable state, String... extra) {
        List<String> actions = new java.util.ArrayList<>(List.of("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query"));
        actions.addAll(List.of(extra));
        return PolicyStatement.Builder.create().sid("AllowStateTable").actions(actions)
                .resources(List.of(state.table().getTableArn(), state.instanceIdIndexArn()))
                .build();
    }

    /** The six functions by short name. */
    public Map<String, GantryFunction> functions() {
        return functions;
    }

    public FunctionUrl webhookUrl() {
        return webhookUrl;
    }

    /** The state table (claims, markers, pool usage, pending-demand history). */
    public software.amazon.awscdk.services.dynamodb.ITable table() {
        return state.table();
    }

    /** The stack's own node role: what an EC2NodeClass's {@code spec.role} names to run as it (the stack's output). */
    public software.amazon.awscdk.services.iam.IRole nodeRole() {
        return nodes.role();
    }

    public ClusterAttach attach() {
        return attach;
    }
}
