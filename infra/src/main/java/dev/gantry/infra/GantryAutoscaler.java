package dev.gantry.infra;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.Subnet;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.ec2.VpcAttributes;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.Schedule;
import software.amazon.awscdk.services.events.targets.LambdaFunction;
import software.amazon.awscdk.services.iam.PolicyStatement;
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

    public GantryAutoscaler(Construct scope, String id, GantryAutoscalerProps props) {
        super(scope, id);
        String cluster = props.clusterName();
        ConfigBundle config = new ConfigBundle(this, "Config", props.config(), props.validator());
        StateTable state = new StateTable(this, "State", props.tableRemoval());
        // Visibility = 6x the consumer's timeout (Lambda's guidance), so a slow batch is not redelivered mid-run.
        // Provisioning: 1 s delivery delay lets a burst of pending pods land in one batch (FIFO event sources
        // support no batching window); a hint older than an hour is stale, the sweep recomputes from the cluster.
        WorkQueue provisioning = new WorkQueue(this, "ProvisioningQueue", true, Duration.minutes(6), Duration.hours(1),
                Duration.seconds(1));
        // Interruption: a spot warning is worthless after its 2 minutes, so 5 minutes' retention is plenty.
        WorkQueue interruption = new WorkQueue(this, "InterruptionQueue", false, Duration.minutes(3),
                Duration.minutes(5), Duration.seconds(0));
        // Termination: each drain step re-enqueues itself with DelaySeconds, so a message only lives one step.
        WorkQueue termination = new WorkQueue(this, "TerminationQueue", false, Duration.minutes(6), Duration.days(1),
                Duration.seconds(0));
        new InterruptionRules(this, "InterruptionRules", interruption.queue());
        NodeIdentity nodes = new NodeIdentity(this, "Node", cluster, props.cniPolicy());
        Secret token = Secret.Builder.create(this, "WebhookToken")
                .description("Gantry webhook path token for EKS cluster " + cluster)
                .generateSecretString(SecretStringGenerator.builder().excludePunctuation(true).includeSpace(false)
                        .passwordLength(48).build())
                .build();

        Map<String, String> env = Map.of(
                "GANTRY_CLUSTER_NAME", cluster,
                "GANTRY_TABLE_NAME", state.table().getTableName(),
                "GANTRY_PROVISIONING_QUEUE_URL", provisioning.queue().getQueueUrl(),
                "GANTRY_INTERRUPTION_QUEUE_URL", interruption.queue().getQueueUrl(),
                "GANTRY_TERMINATION_QUEUE_URL", termination.queue().getQueueUrl(),
                "GANTRY_NODE_ROLE_NAME", nodes.role().getRoleName(),
                "GANTRY_INSTANCE_PROFILE_NAME", nodes.instanceProfile().getInstanceProfileName());
        Map<String, String> withConfig = Map.of("GANTRY_CONFIG", config.s3Url());
        GantryFunction.Placement placement = placement(props.network());

        // Webhook: on the API server's admission path; 512 MB keeps JSON parsing well under the 2 s webhook
        // timeout, 3 s because the API server has given up after 2 s anyway.
        GantryFunction webhook = function(FunctionSpec.of("webhook", HANDLERS + "PendingPodWebhookHandler", 512,
                        Duration.seconds(3)).withReservedConcurrency(props.webhookReservedConcurrency())
                .withEnvironment(Map.of("GANTRY_WEBHOOK_SECRET_ARN", token.getSecretArn())), props, env, placement);
        // Provisioner: the scheduling solve is CPU-bound, and 2048 MB buys more than one vCPU; 60 s covers a solve
        // plus CreateFleet. No reserved concurrency: FIFO with one message group per cluster already runs one at
        // a time.
        GantryFunction provisioner = function(FunctionSpec.of("provisioner", HANDLERS + "ProvisioningQueueHandler",
                2048, Duration.seconds(60)).withEnvironment(withConfig), props, env, placement);
        // Interruption: a lookup and a few API calls per event; 30 s leaves room for a cordon under API throttling.
        GantryFunction interrupter = function(FunctionSpec.of("interruption", HANDLERS + "InterruptionQueueHandler",
                512, Duration.seconds(30)).withEnvironment(withConfig), props, env, placement);
        // Termination: one drain step (evictions, then terminate) per message; waiting happens in the queue.
        GantryFunction terminator = function(FunctionSpec.of("termination", HANDLERS + "TerminationQueueHandler",
                512, Duration.seconds(60)).withEnvironment(withConfig), props, env, placement);
        // Sweep: lists cluster and EC2 state and decides disruption; 50 s so a run ends before the next tick, and
        // reserved concurrency 1 so two sweeps never act on the same state at once.
        GantryFunction sweep = function(FunctionSpec.of("sweep", HANDLERS + "SweepHandler", 1024,
                Duration.seconds(50)).withReservedConcurrency(1).withEnvironment(withConfig), props, env, placement);
        // Attach: fabric8 applies three objects; on delete it also waits for the final sweep, hence 5 minutes.
        GantryFunction attacher = function(FunctionSpec.of("attach", HANDLERS + "attach.ClusterAttachHandler", 512,
                Duration.minutes(5)), props, env, placement);

        ControllerPolicy ec2 = new ControllerPolicy(this, cluster);
        PolicyStatement table = tableStatement(state);
        token.grantRead(webhook.role());
        provisioning.queue().grantSendMessages(webhook.role());
        termination.queue().grantSendMessages(webhook.role());

        provisioner.grant(ec2.launch()).grant(ec2.describe(), ec2.passNodeRole(nodes.role().getRoleArn()),
                ec2.describeCluster(), ec2.amiParameters(), ec2.pricing(), table, config.readStatement());
        interrupter.grant(ec2.terminate(), ec2.describe(), ec2.describeCluster(), table, config.readStatement());
        termination.queue().grantSendMessages(interrupter.role());
        provisioning.queue().grantSendMessages(interrupter.role());
        terminator.grant(ec2.terminate(), ec2.describe(), ec2.describeCluster(), table, config.readStatement());
        termination.queue().grantSendMessages(terminator.role());
        sweep.grant(ec2.terminate(), ec2.describe(), ec2.describeCluster(), ec2.amiParameters(), ec2.pricing(),
                table, config.readStatement());
        sweep.grant(ec2.collectLaunchTemplates());
        provisioning.queue().grantSendMessages(sweep.role());
        termination.queue().grantSendMessages(sweep.role());
        attacher.grant(ec2.describeCluster());
        token.grantRead(attacher.role());
        sweep.alias().grantInvoke(attacher.role());

        provisioner.alias().addEventSource(SqsEventSource.Builder.create(provisioning.queue()).batchSize(10)
                .reportBatchItemFailures(true).build());
        interrupter.alias().addEventSource(SqsEventSource.Builder.create(interruption.queue()).batchSize(10)
                .reportBatchItemFailures(true).build());
        // Termination: at most 5 drains at once, to bound eviction pressure on the API server; the event source's
        // cap (unlike reserved concurrency) does not throttle, so capped messages do not burn receive counts.
        terminator.alias().addEventSource(SqsEventSource.Builder.create(termination.queue()).batchSize(10)
                .maxConcurrency(5).reportBatchItemFailures(true).build());
        Rule.Builder.create(this, "SweepSchedule")
                .description("Gantry sweep for EKS cluster " + cluster)
                .schedule(Schedule.rate(props.scheduleRate()))
                // A missed tick is covered by the next one; retries would only stack sweeps up.
                .targets(List.of(LambdaFunction.Builder.create(sweep.alias()).retryAttempts(0).build()))
                .build();
        // Auth NONE: the API server cannot sign SigV4. The secret path token is what authenticates it.
        webhookUrl = webhook.alias().addFunctionUrl(FunctionUrlOptions.builder()
                .authType(FunctionUrlAuthType.NONE).build());

        functions = Map.of("webhook", webhook, "provisioner", provisioner, "interruption", interrupter,
                "termination", terminator, "sweep", sweep, "attach", attacher);
        attach = new ClusterAttach(this, "ClusterAttach", cluster, attacher,
                List.of(provisioner.role(), interrupter.role(), terminator.role(), sweep.role()),
                webhookUrl.getUrl(), token.getSecretArn(), sweep.alias().getFunctionArn());
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
                .allowAllOutbound(true).build();
        return new GantryFunction.Placement(vpc, subnets, sg);
    }

    /** Item reads and single-item conditional writes on the table and its instance-id index, nothing else. */
    private static PolicyStatement tableStatement(StateTable state) {
        return PolicyStatement.Builder.create().sid("AllowStateTable")
                .actions(List.of("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem",
                        "dynamodb:DeleteItem", "dynamodb:Query", "dynamodb:ConditionCheckItem"))
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

    public ClusterAttach attach() {
        return attach;
    }
}
