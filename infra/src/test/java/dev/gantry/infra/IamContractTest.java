package dev.gantry.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.testing.Ec2State;
import dev.gantry.testing.iam.IamCall;
import dev.gantry.testing.iam.IamCallLog;
import dev.gantry.testing.iam.IamRequest;
import dev.gantry.testing.iam.PolicyEvaluator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The IAM contract between code and deployment: every AWS call the functions' tests make through the AWS stub
 * (handlers' integration and lifecycle tests, the aws module's EC2 launch tests), signed as the function that
 * makes it, is allowed by the synthesized policies of that function's role, evaluated with AWS's logic and EC2's
 * per-resource authorization (see {@code dev.gantry.testing.IamAuthorizations}). The recordings come from those
 * modules' surefire runs and the handlers' failsafe run (the jar smokes' child JVMs call the parent's stub), read
 * from the files named by system property {@code gantry.iamCalls.files}; the reactor builds infra after them. A call
 * signed as no Gantry function fails the contract, naming the test that made it.
 */
class IamContractTest {
    private static final List<String> CALLERS_OF_EC2 = List.of("provisioner", "sweep", "termination", "interruption");
    private static final List<String> RECORDED_FUNCTIONS = List.of("provisioner", "sweep", "termination",
            "interruption", "webhook", "attach");
    private static SynthesizedRoles roles;
    private static List<IamCall> calls;

    @BeforeAll
    static void load() {
        String files = System.getProperty("gantry.iamCalls.files",
                "../functions/aws/target/iam-calls/surefire.jsonl,../functions/handlers/target/iam-calls/surefire.jsonl,"
                        + "../functions/handlers/target/iam-calls/failsafe.jsonl");
        roles = SynthesizedRoles.shared();
        calls = new ArrayList<>();
        for (String f : files.split(",")) {
            Path file = Path.of(f.trim());
            if (!Files.isRegularFile(file)) {
                throw new AssertionError("no recorded AWS calls at " + file.toAbsolutePath().normalize()
                        + ": the IAM contract evaluates the calls the functions' tests record. Run them first: "
                        + "`mvn -B verify` builds functions/aws and functions/handlers (surefire, then failsafe's jar "
                        + "smokes) before infra; for infra alone, "
                        + "`mvn -B verify -pl functions/aws,functions/handlers,infra -am`.");
            }
            IamCallLog.read(file).forEach(c -> calls.add(asDeployed(c)));
        }
    }

    /**
     * The tests' per-run names of the emulators' table and queues, and the template resource each plays
     * ({@link SynthesizedRoles} names those {@value SynthesizedRoles#TABLE}, {@code termination}...).
     */
    private static final Map<Pattern, String> TEST_RESOURCES = Map.of(
            Pattern.compile(":table/(gantry|gantry-lifecycle-it)(/|$)"), ":table/" + SynthesizedRoles.TABLE + "$2",
            Pattern.compile(":termination-[0-9]+$"), ":termination",
            Pattern.compile(":interruption-[0-9]+$"), ":interruption",
            Pattern.compile(":(provisioning|hints)-[0-9]+\\.fifo$"), ":provisioning.fifo");

    /** The config object the tests read (S3ConfigSourceTest), which plays the deploy bundle (GANTRY_DEPLOY_BUNDLE). */
    static final String TEST_CONFIG_OBJECT = "arn:aws:s3:::gantry-config/clusters/prod/gantry.yaml";

    /** The calls made as a Gantry function ({@code function} or {@code function@cluster}), test names mapped. */
    private static List<IamCall> gantryCalls() {
        return calls.stream().filter(c -> roles.statementsByFunction.containsKey(function(c))).toList();
    }

    private static IamCall asDeployed(IamCall call) {
        IamCall config = change(call, a -> a.resource().equals(TEST_CONFIG_OBJECT),
                a -> new IamRequest(a.action(), roles.configObjectArn, a.context()));
        return change(config, a -> a.action().startsWith("dynamodb:") || a.action().startsWith("sqs:"), a -> {
            String resource = a.resource();
            for (var e : TEST_RESOURCES.entrySet()) {
                resource = e.getKey().matcher(resource).replaceAll(e.getValue());
            }
            return new IamRequest(a.action(), resource, a.context());
        });
    }

    private static String function(IamCall call) {
        return call.principal().replaceFirst("@.*", "");
    }

    private static String cluster(IamCall call) {
        int at = call.principal().indexOf('@');
        return at < 0 ? Ec2State.CLUSTER : call.principal().substring(at + 1);
    }

    @Test
    void everyRecordedCallIsAllowedByThePoliciesOfTheRoleOfTheFunctionThatMadeIt() {
        Map<String, Integer> denied = new LinkedHashMap<>();
        TreeSet<String> pairs = new TreeSet<>();
        for (IamCall call : gantryCalls()) {
            SynthesizedRoles stack = SynthesizedRoles.forCluster(cluster(call));
            call.authorizations().forEach(a -> pairs.add(function(call) + " " + a.action()));
            stack.evaluator(function(call)).firstDenial(call.authorizations()).ifPresent(d -> denied.merge(
                    call.principal() + " (role " + stack.roleByFunction.get(function(call)) + ") " + call.call()
                            + " in " + call.origin() + ": "
                            + d.toString().replaceAll("(lt|i)-0[0-9a-f]+", "$1-*"), 1, Integer::sum));
        }
        System.out.printf("IAM contract: %d calls by %s, %d distinct (function, action) pairs; template: %d "
                        + "resources, %d IAM statements%n", gantryCalls().size(),
                gantryCalls().stream().map(IamCall::principal).distinct().sorted().toList(), pairs.size(),
                roles.resourceCount, roles.statementCount);
        pairs.forEach(p -> System.out.println("  " + p));
        printUnexercisedGrants(pairs);
        assertThat(denied.entrySet().stream().map(e -> e.getValue() + "x " + e.getKey()).toList())
                .as("calls the deployed policies would deny (first denied check of each call, ids starred)").isEmpty();
    }

    /**
     * Regression (#21): every function could update, delete and condition-check the state table's items, though no
     * code does (the claim store reads, queries and puts; only the provisioner's pending-demand history updates). Each
     * table action a function is granted is now one its recorded calls use.
     */
    @Test
    void eachFunctionIsGrantedOnlyTheTableActionsItsRecordedCallsUse() {
        for (String function : List.of("provisioner", "interruption", "termination", "sweep")) {
            TreeSet<String> granted = roles.statementsByFunction.get(function).stream().filter(st -> st.allow() && !st.notAction())
                    .flatMap(st -> st.actions().stream()).filter(a -> a.startsWith("dynamodb:"))
                    .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
            TreeSet<String> used = gantryCalls().stream().filter(c -> function(c).equals(function))
                    .flatMap(c -> c.authorizations().stream()).map(IamRequest::action).filter(a -> a.startsWith("dynamodb:"))
                    .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
            assertThat(granted).as("%s's table grants, against its recorded calls %s", function, used).isNotEmpty()
                    .isSubsetOf(used);
        }
    }

    /** Granted actions no recorded call needed: not a failure (tests do not reach every path), but a list to read. */
    private static void printUnexercisedGrants(TreeSet<String> pairs) {
        roles.statementsByFunction.forEach((function, statements) -> {
            List<String> unused = statements.stream().filter(st -> st.allow() && !st.notAction())
                    .flatMap(st -> st.actions().stream()).distinct()
                    .filter(a -> !a.startsWith("logs:") && !pairs.contains(function + " " + a)).sorted().toList();
            if (!unused.isEmpty()) {
                System.out.println("  granted to " + function + ", not exercised by the recordings: " + unused);
            }
        });
    }

    /** A call signed as no function ("test", "AKIDEXAMPLE") would escape the evaluation: sign as the function. */
    @Test
    void everyRecordedCallIsSignedAsAGantryFunction() {
        assertThat(calls.stream().filter(c -> !roles.statementsByFunction.containsKey(function(c)))
                .map(c -> c.principal() + " " + c.call() + " in " + (c.origin().isEmpty() ? "an unnamed test" : c.origin()))
                .distinct().toList())
                .as("calls signed as no Gantry function %s (sign the test's client with the access key id of the "
                        + "function it stands for)", roles.statementsByFunction.keySet()).isEmpty();
    }

    @Test
    void theRecordingsCoverEveryFunctionThatCallsEc2AndTheChecksThatMatter() {
        assertThat(gantryCalls()).extracting(IamContractTest::function).containsAll(RECORDED_FUNCTIONS);
        assertThat(gantryCalls()).filteredOn(c -> c.call().startsWith("ec2:")).extracting(IamContractTest::function)
                .containsAll(CALLERS_OF_EC2);
        List<String> actions = gantryCalls().stream().flatMap(c -> c.authorizations().stream())
                .map(IamRequest::action).distinct().toList();
        assertThat(actions).contains("ec2:CreateFleet", "ec2:RunInstances", "ec2:CreateLaunchTemplate", "ec2:CreateTags",
                "ec2:TerminateInstances", "ec2:DescribeInstances", "ec2:DescribeCapacityReservations", "iam:PassRole", "ssm:GetParameter",
                "dynamodb:PutItem", "dynamodb:Query", "dynamodb:GetItem", "sqs:SendMessage", "sqs:ReceiveMessage",
                "eks:DescribeCluster", "pricing:GetProducts", "s3:GetObject", "secretsmanager:GetSecretValue",
                "lambda:InvokeFunction");
        // Preview instance types' shapes (Ec2InstanceTypeDescriptionsTest, signed as the provisioner) on its role.
        assertThat(gantryCalls()).filteredOn(c -> c.call().equals("ec2:DescribeInstanceTypes"))
                .extracting(IamContractTest::function).isNotEmpty().contains("provisioner");
        // The sweep's status-check step (Ec2InstanceStatusChecksTest, signed as the sweep) is proven on its role.
        assertThat(gantryCalls()).filteredOn(c -> c.call().equals("ec2:DescribeInstanceStatus"))
                .extracting(IamContractTest::function).isNotEmpty().containsOnly("sweep");
        // The handlers' own ChangeMessageVisibility (each invocation holds its records for its own time only, in one
        // batch request; a failed record or run comes back in seconds): granted explicitly to each consumer.
        for (String consumer : List.of("provisioner", "interruption", "termination")) {
            assertThat(gantryCalls()).as(consumer + " holds its batch: sqs:ChangeMessageVisibilityBatch on its own queue")
                    .anyMatch(c -> function(c).equals(consumer) && c.call().equals("sqs:ChangeMessageVisibilityBatch"));
            assertThat(gantryCalls()).as(consumer + " brings a failed record back: sqs:ChangeMessageVisibility")
                    .anyMatch(c -> function(c).equals(consumer) && c.call().equals("sqs:ChangeMessageVisibility"));
        }
        assertThat(gantryCalls()).as("the provisioner starts the drain of a deleted node: it sends to the termination queue")
                .anyMatch(c -> function(c).equals("provisioner") && c.call().equals("sqs:SendMessage")
                        && c.authorizations().stream().anyMatch(a -> a.resource().endsWith(":termination")));
    }

    @Test
    void aFunctionMayChangeTheVisibilityOfMessagesOnlyOnTheQueueItConsumes() {
        Map<String, String> own = Map.of("provisioner", ":provisioning.fifo", "interruption", ":interruption",
                "termination", ":termination");
        own.forEach((function, queue) -> {
            IamCall change = recorded(function, "sqs:ChangeMessageVisibilityBatch"); // authorized as ChangeMessageVisibility
            assertThat(change.authorizations()).extracting(IamRequest::resource).allMatch(r -> r.endsWith(queue));
            assertThat(roles.evaluator(function).firstDenial(change.authorizations())).as(function).isEmpty();
            own.values().stream().filter(q -> !q.equals(queue)).forEach(other -> {
                IamCall elsewhere = change(change, a -> true, a -> new IamRequest(a.action(),
                        a.resource().replaceFirst(Pattern.quote(queue) + "$", other), a.context()));
                assertThat(roles.evaluator(function).firstDenial(elsewhere.authorizations())).as(function + " on " + other)
                        .isPresent();
            });
        });
        for (String other : List.of("webhook", "sweep", "attach")) {
            assertThat(roles.evaluator(other).firstDenial(recorded("termination", "sqs:ChangeMessageVisibility")
                    .authorizations())).as(other).isPresent();
        }
    }

    // --- negative tests: a recorded call, changed in one respect, is denied (and unchanged it is allowed) ---

    @Test
    void terminatingAnInstanceWithoutOurClusterTagIsDenied() {
        for (String function : List.of("sweep", "termination")) {
            IamCall terminate = recorded(function, "ec2:TerminateInstances");
            assertThat(roles.evaluator(function).firstDenial(terminate.authorizations())).isEmpty();
            IamCall foreign = change(terminate, a -> true, a -> without(a, "aws:ResourceTag/gantry.dev/cluster"));
            assertThat(roles.evaluator(function).firstDenial(foreign.authorizations())).as(function).isPresent();
            IamCall otherCluster = change(terminate, a -> true,
                    a -> with(a, "aws:ResourceTag/gantry.dev/cluster", "other-cluster"));
            assertThat(roles.evaluator(function).firstDenial(otherCluster.authorizations())).as(function).isPresent();
        }
    }

    /**
     * Adoption (the migration from Karpenter): the sweep may add Gantry's tags to this cluster's Karpenter's instances,
     * and only Gantry's tags, only there; the termination function then terminates the retagged instance.
     */
    @Test
    void onlyTheSweepMayAdoptAKarpenterInstanceOfThisClusterAndOnlyWithGantrysTags() {
        IamCall retag = recorded("sweep", "ec2:CreateTags");
        PolicyEvaluator sweep = roles.evaluator("sweep");
        assertThat(sweep.firstDenial(retag.authorizations())).isEmpty();
        String owned = "aws:ResourceTag/kubernetes.io/cluster/" + Ec2State.CLUSTER;
        assertThat(sweep.firstDenial(change(retag, a -> true, a -> without(a, owned)).authorizations()))
                .as("an instance no Karpenter of this cluster launched").isPresent();
        assertThat(sweep.firstDenial(change(retag, a -> true, a -> without(a, "aws:ResourceTag/karpenter.sh/nodepool"))
                .authorizations())).as("an instance of no NodePool (a node group's)").isPresent();
        assertThat(sweep.firstDenial(change(retag, a -> true, a -> with(a, "aws:TagKeys", "Owner")).authorizations()))
                .as("a tag other than Gantry's").isPresent();
        assertThat(sweep.firstDenial(change(retag, a -> true,
                a -> with(a, "aws:RequestTag/gantry.dev/cluster", "other-cluster")).authorizations()))
                .as("another cluster's tag").isPresent();
        for (String other : List.of("provisioner", "interruption", "termination", "webhook", "attach")) {
            assertThat(roles.evaluator(other).firstDenial(retag.authorizations())).as(other).isPresent();
        }
        IamCall terminate = gantryCalls().stream().filter(c -> c.principal().equals("termination")
                        && c.call().equals("ec2:TerminateInstances") && c.authorizations().stream()
                        .anyMatch(a -> a.context().containsKey(owned.toLowerCase(java.util.Locale.ROOT))))
                .findFirst().orElseThrow(() -> new AssertionError("no recorded termination of an adopted instance"));
        assertThat(roles.evaluator("termination").firstDenial(terminate.authorizations())).isEmpty();
    }

    @Test
    void createFleetWhoseRequestTagsLackTheNodePoolTagIsDenied() {
        IamCall fleet = recorded("provisioner", "ec2:CreateFleet");
        PolicyEvaluator provisioner = roles.evaluator("provisioner");
        assertThat(provisioner.firstDenial(fleet.authorizations())).isEmpty();
        IamCall untagged = change(fleet, a -> a.resource().endsWith(":instance/*"),
                a -> without(a, "aws:RequestTag/gantry.dev/nodepool"));
        assertThat(provisioner.firstDenial(untagged.authorizations())).get()
                .satisfies(d -> assertThat(d.request().resource()).endsWith(":instance/*"));
    }

    /**
     * aws website getting-started cloudformation.yaml (AllowScopedEC2InstanceAccessActions grants capacity-reservation/*
     * on RunInstances and CreateFleet): a launch from a template that targets a capacity reservation is authorized on
     * the reservation too (Ec2ReservedLaunchTest records one), and the provisioner's role allows it only through that
     * grant.
     */
    @Test
    void aLaunchIntoACapacityReservationIsAuthorizedOnTheReservation() {
        IamCall fleet = gantryCalls().stream().filter(c -> function(c).equals("provisioner")
                        && c.call().equals("ec2:CreateFleet") && c.authorizations().stream()
                        .anyMatch(a -> a.resource().contains(":capacity-reservation/")))
                .findFirst().orElseThrow(() -> new AssertionError("no recorded CreateFleet into a capacity reservation"));
        PolicyEvaluator provisioner = roles.evaluator("provisioner");
        assertThat(provisioner.firstDenial(fleet.authorizations())).isEmpty();
        assertThat(fleet.authorizations()).filteredOn(a -> a.resource().contains(":capacity-reservation/"))
                .extracting(IamRequest::action).containsExactlyInAnyOrder("ec2:CreateFleet", "ec2:RunInstances");
    }

    @Test
    void passingARoleOtherThanTheNodeRoleIsDenied() {
        IamCall fleet = recorded("provisioner", "ec2:CreateFleet");
        PolicyEvaluator provisioner = roles.evaluator("provisioner");
        Predicate<IamRequest> passRole = a -> a.action().equals("iam:PassRole");
        assertThat(fleet.authorizations()).filteredOn(passRole).isNotEmpty();
        IamCall admin = change(fleet, passRole, a -> new IamRequest(a.action(),
                "arn:aws:iam::" + Ec2State.ACCOUNT + ":role/Admin", a.context()));
        assertThat(provisioner.firstDenial(admin.authorizations())).get()
                .satisfies(d -> assertThat(d.request().resource()).endsWith(":role/Admin"));
        IamCall toLambda = change(fleet, passRole, a -> with(a, "iam:PassedToService", "lambda.amazonaws.com"));
        assertThat(provisioner.firstDenial(toLambda.authorizations())).isPresent();
    }

    /**
     * An EC2NodeClass naming a role given with {@code -c nodeRoles=} launches with it (NodeRoleProfilesTest records the
     * launch): the provisioner may pass that role, to EC2 only.
     */
    @Test
    void aLaunchAsARoleNamedAtDeployMayPassIt() {
        String karpenterRole = "arn:aws:iam::" + Ec2State.ACCOUNT + ":role/" + SynthesizedRoles.NODE_ROLES;
        IamCall fleet = gantryCalls().stream().filter(c -> function(c).equals("provisioner")
                        && c.call().equals("ec2:CreateFleet") && c.authorizations().stream()
                        .anyMatch(a -> a.action().equals("iam:PassRole") && a.resource().equals(karpenterRole)))
                .findFirst().orElseThrow(() -> new AssertionError("no recorded CreateFleet passing " + karpenterRole));
        PolicyEvaluator provisioner = roles.evaluator("provisioner");
        assertThat(provisioner.firstDenial(fleet.authorizations())).isEmpty();
        Predicate<IamRequest> passRole = a -> a.action().equals("iam:PassRole");
        IamCall toLambda = change(fleet, passRole, a -> with(a, "iam:PassedToService", "lambda.amazonaws.com"));
        assertThat(provisioner.firstDenial(toLambda.authorizations())).isPresent();
        assertThat(roles.evaluator("sweep").firstDenial(fleet.authorizations())).isPresent();
    }

    @Test
    void theWebhooksRoleTouchesNeitherEc2NorDynamoDb() {
        PolicyEvaluator webhook = roles.evaluator("webhook");
        for (String call : List.of("ec2:CreateFleet", "ec2:DescribeInstances", "ec2:CreateLaunchTemplate")) {
            assertThat(webhook.firstDenial(recorded("provisioner", call).authorizations())).as(call).isPresent();
        }
        assertThat(webhook.firstDenial(recorded("sweep", "ec2:TerminateInstances").authorizations())).isPresent();
        String table = "arn:aws:dynamodb:" + SynthesizedRoles.REGION + ":" + Ec2State.ACCOUNT + ":table/"
                + roles.template.physicalName(roles.template.resourcesOfType("AWS::DynamoDB::Table").getFirst());
        for (String action : List.of("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query")) {
            IamRequest item = new IamRequest(action, table, Map.of("aws:RequestedRegion", List.of(SynthesizedRoles.REGION)));
            assertThat(roles.evaluator("sweep").evaluate(item).allowed()).as("control: the sweep may " + action).isTrue();
            assertThat(webhook.evaluate(item).allowed()).as("webhook " + action).isFalse();
        }
    }

    /**
     * The cluster is the only source of truth for configuration: attach alone reads the deploy bundle (to seed the
     * cluster); no handler may read it, so none can fall back on a stale copy.
     */
    @Test
    void onlyAttachMayReadTheDeployBundle() {
        IamCall read = recorded("attach", "s3:GetObject");
        assertThat(read.authorizations()).extracting(IamRequest::resource).containsOnly(roles.configObjectArn);
        assertThat(roles.evaluator("attach").firstDenial(read.authorizations())).isEmpty();
        for (String other : List.of("provisioner", "interruption", "termination", "sweep", "webhook")) {
            assertThat(roles.evaluator(other).firstDenial(read.authorizations())).as(other).isPresent();
        }
        IamCall otherKey = change(read, a -> true,
                a -> new IamRequest(a.action(), a.resource().replaceFirst("/[^/]+$", "/other.yaml"), a.context()));
        assertThat(roles.evaluator("attach").firstDenial(otherKey.authorizations())).as("another key").isPresent();
    }

    @Test
    void onlyTheWebhookAndAttachMayReadTheWebhookToken() {
        IamCall read = recorded("webhook", "secretsmanager:GetSecretValue");
        assertThat(roles.evaluator("webhook").firstDenial(read.authorizations())).isEmpty();
        assertThat(roles.evaluator("attach").firstDenial(recorded("attach", "secretsmanager:GetSecretValue")
                .authorizations())).isEmpty();
        for (String other : List.of("provisioner", "interruption", "termination", "sweep")) {
            assertThat(roles.evaluator(other).firstDenial(read.authorizations())).as(other).isPresent();
        }
        IamCall otherSecret = change(read, a -> true, a -> new IamRequest(a.action(),
                a.resource().replace(":secret:" + SynthesizedRoles.SECRET + "-", ":secret:database-password-"),
                a.context()));
        assertThat(roles.evaluator("webhook").firstDenial(otherSecret.authorizations())).as("another secret").isPresent();
    }

    @Test
    void onlyAttachMayInvokeTheSweepAndOnlyThroughItsAlias() {
        IamCall invoke = recorded("attach", "lambda:Invoke");
        assertThat(invoke.authorizations()).extracting(IamRequest::resource)
                .containsOnly("arn:aws:lambda:" + SynthesizedRoles.REGION + ":" + Ec2State.ACCOUNT + ":function:sweep:live");
        assertThat(roles.evaluator("attach").firstDenial(invoke.authorizations())).isEmpty();
        for (String other : List.of("provisioner", "interruption", "termination", "sweep", "webhook")) {
            assertThat(roles.evaluator(other).firstDenial(invoke.authorizations())).as(other).isPresent();
        }
        IamCall unqualified = change(invoke, a -> true,
                a -> new IamRequest(a.action(), a.resource().replaceFirst(":live$", ""), a.context()));
        assertThat(roles.evaluator("attach").firstDenial(unqualified.authorizations())).as("unqualified").isPresent();
        IamCall provisioner = change(invoke, a -> true,
                a -> new IamRequest(a.action(), a.resource().replace(":sweep:", ":provisioner:"), a.context()));
        assertThat(roles.evaluator("attach").firstDenial(provisioner.authorizations())).as("another function")
                .isPresent();
    }

    private static IamCall recorded(String function, String call) {
        return gantryCalls().stream().filter(c -> c.principal().equals(function) && c.call().equals(call)
                        && !c.authorizations().isEmpty()).findFirst()
                .orElseThrow(() -> new AssertionError("no recorded " + call + " by " + function));
    }

    private static IamCall change(IamCall call, Predicate<IamRequest> which, UnaryOperator<IamRequest> how) {
        return new IamCall(call.principal(), call.call(), call.authorizations().stream()
                .map(a -> which.test(a) ? how.apply(a) : a).toList(), call.origin());
    }

    private static IamRequest without(IamRequest a, String key) {
        Map<String, List<String>> context = new LinkedHashMap<>(a.context());
        context.remove(key.toLowerCase(java.util.Locale.ROOT));
        return new IamRequest(a.action(), a.resource(), context);
    }

    private static IamRequest with(IamRequest a, String key, String value) {
        Map<String, List<String>> context = new LinkedHashMap<>(without(a, key).context());
        context.put(key, List.of(value));
        return new IamRequest(a.action(), a.resource(), context);
    }
}
