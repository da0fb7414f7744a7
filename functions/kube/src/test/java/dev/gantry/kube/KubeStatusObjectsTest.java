package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.crd.KarpenterCrd;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Resources;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.status.ClaimProjection;
import dev.gantry.core.status.NodeClassStatus;
import dev.gantry.core.status.StatusWriter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * NodePool and EC2NodeClass status written by {@link StatusWriter} through {@link KubeStatusObjects}, on the mock
 * server with the CRDs and seed 000's objects applied: what {@code kubectl describe nodepool} and
 * {@code kubectl get nodepools -o wide} show, each status checked against the CRD's schema.
 */
class KubeStatusObjectsTest {
    private static final Path SEED = Path.of("../../samples/nodepools/seed000-v1.yaml");
    private static final Instant NOW = Instant.parse("2026-04-01T12:00:00Z");

    private MockApi api;
    private GantryConfig config;
    private final Map<String, List<String>> diagnostics = new HashMap<>();
    private StatusWriter writer;
    private List<NodeClassStatus.Reservation> reservations = List.of();
    private List<NodeClassStatus.Ami> amis = List.of(new NodeClassStatus.Ami("ami-0a", "amazon-eks-node-1.33", List.of(
            Requirement.of("kubernetes.io/arch", Operator.In, "amd64"))));

    @BeforeEach
    void start() throws IOException {
        api = new MockApi();
        for (KarpenterCrd crd : KarpenterCrd.values()) {
            api.client.apiextensions().v1().customResourceDefinitions()
                    .resource(Serialization.unmarshal(crd.manifest(), CustomResourceDefinition.class)).create();
        }
        List<HasMetadata> seed = Serialization.unmarshal(Files.readString(SEED));
        for (HasMetadata o : seed) {
            GenericKubernetesResource g = (GenericKubernetesResource) o;
            api.client.genericKubernetesResources(g.getKind().equals("NodePool") ? KubeStatusObjects.NODE_POOLS
                    : KubeStatusObjects.EC2_NODE_CLASSES).resource(g).create();
        }
        LoadResult loaded = ConfigLoader.load(List.of(SEED), LoadOptions.DEFAULT);
        config = new GantryConfig(loaded.nodePools(), loaded.nodeClasses(), "us-east-1", List.of());
        ClaimProjection.CapacityOf capacity = type -> Optional.of(new ClaimProjection.Capacity(
                Resources.of(2000, 8L << 30), Resources.of(1930, 7L << 30)));
        writer = new StatusWriter(new KubeStatusObjects(KubeClients.forUrl(api.url())), nodeClass -> new NodeClassStatus(
                List.of(new NodeClassStatus.Subnet("subnet-0a", "us-east-1a", "use1-az1")),
                List.of(new NodeClassStatus.SecurityGroup("sg-0a", null)),
                amis, nodeClass.instanceProfile(), List.of(), reservations), capacity, () -> config, () -> diagnostics);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void kubectlDescribeNodepoolShowsUsageAgainstLimits() {
        writer.sync(List.of(claim("seed000-a"), claim("seed000-b")), NOW);

        Map<String, Object> pool = json(KubeStatusObjects.NODE_POOLS, "seed000");
        assertThat(CrdSchema.select(pool, ".status.resources")).isEqualTo(Map.of("cpu", "4", "memory", "16Gi",
                "gantry.dev/cost-per-hour", "0.1504"));
        assertThat(CrdSchema.select(pool, ".spec.limits")).isEqualTo(Map.of("cpu", "20", "memory", "100Gi"));
        CrdSchema crd = new CrdSchema(KarpenterCrd.NODE_POOL);
        Map<String, Object> columns = new LinkedHashMap<>();
        crd.printerColumns().forEach((name, path) -> columns.put(name, CrdSchema.select(pool, path)));
        assertThat(columns).containsEntry("NodeClass", "seed000").containsEntry("Nodes", 2).containsEntry("Ready", "True")
                .containsEntry("CPU", "4").containsEntry("Memory", "16Gi");
        assertThat(crd.violations(pool)).isEmpty();

        Map<String, Object> nodeClass = json(KubeStatusObjects.EC2_NODE_CLASSES, "seed000");
        assertThat(CrdSchema.select(nodeClass, ".status.conditions[?(@.type==\"Ready\")].status")).isEqualTo("True");
        assertThat(CrdSchema.select(nodeClass, ".status.conditions[?(@.type==\"ValidationSucceeded\")].status")).isEqualTo("True");
        assertThat(CrdSchema.select(nodeClass, ".status.instanceProfile")).isEqualTo("KarpenterNodeInstanceProfile-karpenter-sample");
        assertThat(new CrdSchema(KarpenterCrd.EC2_NODE_CLASS).violations(nodeClass)).isEmpty();
    }

    /**
     * aws {@code pkg/apis/v1/ec2nodeclass_status.go}: {@code status.capacityReservations} in Karpenter's field names,
     * valid under its CRD, read back equal so that an unchanged list is not written again.
     */
    @Test
    void capacityReservationsAreWrittenInKarpentersShapeAndReadBackEqual() {
        reservations = List.of(new NodeClassStatus.Reservation("cr-0123456789abcdef0", "us-east-1a", "p5.48xlarge",
                "123456789012", "targeted", "capacity-block", false, NOW.plusSeconds(3600), "expiring"),
                new NodeClassStatus.Reservation("cr-0123456789abcdef1", "us-east-1b", "m5.large", "123456789012", "open",
                        "default", true, null, "active"));
        writer.sync(List.of(claim("seed000-a")), NOW);

        Map<String, Object> nodeClass = json(KubeStatusObjects.EC2_NODE_CLASSES, "seed000");
        assertThat((List<?>) CrdSchema.select(nodeClass, ".status.capacityReservations")).hasSize(2).first().isEqualTo(Map.of(
                "availabilityZone", "us-east-1a", "endTime", "2026-04-01T13:00:00Z", "id", "cr-0123456789abcdef0",
                "instanceMatchCriteria", "targeted", "instanceType", "p5.48xlarge", "ownerID", "123456789012",
                "reservationType", "capacity-block", "interruptible", false, "state", "expiring"));
        assertThat(new CrdSchema(KarpenterCrd.EC2_NODE_CLASS).violations(nodeClass)).isEmpty();
        StatusWriter.Report again = writer.sync(List.of(claim("seed000-a")), NOW.plusSeconds(60));
        assertThat(again.nodeClassesWritten()).isZero();
    }

    /**
     * An alias's images as Karpenter lists them in {@code status.amis}: each variant with its requirements, the
     * operators {@code Exists} and {@code DoesNotExist} without values. Valid under its CRD, and read back equal, so an
     * unchanged list is not written again every sweep.
     */
    @Test
    void anAliasesVariantImagesAreWrittenWithKarpentersRequirementsAndReadBackEqual() {
        Requirement amd64 = Requirement.of("kubernetes.io/arch", Operator.In, "amd64");
        amis = List.of(new NodeClassStatus.Ami("ami-0n", "amazon-eks-node-al2023-x86_64-neuron-1.33-v20250101", List.of(amd64,
                        Requirement.of("karpenter.k8s.aws/instance-accelerator-count", Operator.Exists))),
                new NodeClassStatus.Ami("ami-0g", "amazon-eks-node-al2023-x86_64-nvidia-1.33-v20250101", List.of(amd64,
                        Requirement.of("karpenter.k8s.aws/instance-gpu-count", Operator.Exists))),
                new NodeClassStatus.Ami("ami-0s", "amazon-eks-node-al2023-x86_64-standard-1.33-v20250101", List.of(amd64,
                        Requirement.of("karpenter.k8s.aws/instance-accelerator-count", Operator.DoesNotExist),
                        Requirement.of("karpenter.k8s.aws/instance-gpu-count", Operator.DoesNotExist))));
        writer.sync(List.of(claim("seed000-a")), NOW);

        Map<String, Object> nodeClass = json(KubeStatusObjects.EC2_NODE_CLASSES, "seed000");
        assertThat(CrdSchema.select(nodeClass, ".status.amis[?(@.id==\"ami-0s\")].requirements")).isEqualTo(List.of(
                Map.of("key", "kubernetes.io/arch", "operator", "In", "values", List.of("amd64")),
                Map.of("key", "karpenter.k8s.aws/instance-accelerator-count", "operator", "DoesNotExist"),
                Map.of("key", "karpenter.k8s.aws/instance-gpu-count", "operator", "DoesNotExist")));
        assertThat(new CrdSchema(KarpenterCrd.EC2_NODE_CLASS).violations(nodeClass)).isEmpty();
        assertThat(writer.sync(List.of(claim("seed000-a")), NOW.plusSeconds(60)).nodeClassesWritten()).isZero();
    }

    /** A deprecated image is written {@code deprecated: true} (Karpenter's field, omitted when false) and read back equal. */
    @Test
    void aDeprecatedImageIsMarkedSoAndReadBackEqual() {
        amis = List.of(new NodeClassStatus.Ami("ami-0d", "team-node-2023-01", List.of(
                Requirement.of("kubernetes.io/arch", Operator.In, "amd64")), true));
        writer.sync(List.of(claim("seed000-a")), NOW);

        Map<String, Object> nodeClass = json(KubeStatusObjects.EC2_NODE_CLASSES, "seed000");
        assertThat(CrdSchema.select(nodeClass, ".status.amis[?(@.id==\"ami-0d\")].deprecated")).isEqualTo(true);
        assertThat(new CrdSchema(KarpenterCrd.EC2_NODE_CLASS).violations(nodeClass)).isEmpty();
        assertThat(writer.sync(List.of(claim("seed000-a")), NOW.plusSeconds(60)).nodeClassesWritten()).isZero();
    }

    @Test
    void aPoolsStatusCarriesItsCostPerHourBesideItsCapacityAndKarpentersSchemaAcceptsIt() {
        NodeClaim spot = NodeClaim.launching("seed000-b", "seed000", null, List.of(), List.of("t3a.large"), List.of(), "t3a.large",
                "us-east-1a", "spot", 0.03, NOW.minusSeconds(300))
                .launched("i-b", "t3a.large", "us-east-1a", "spot", 0.03, NOW.minusSeconds(290));
        writer.sync(List.of(claim("seed000-a"), spot), NOW);

        Map<String, Object> pool = json(KubeStatusObjects.NODE_POOLS, "seed000");
        assertThat(CrdSchema.select(pool, ".status.resources.gantry\\.dev/cost-per-hour")).isEqualTo("0.1052");
        assertThat(new CrdSchema(KarpenterCrd.NODE_POOL).violations(pool)).isEmpty();
    }

    /**
     * A class naming a role the deployment cannot pass runs as the stack's node role, and {@code kubectl describe
     * ec2nodeclass} says so in {@code InstanceProfileReady} (True, reason {@code DeploymentNodeRole}); the class stays
     * Ready, the status is valid under Karpenter's CRD, and the next sweep writes nothing.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aRoleTheDeploymentCannotPassIsSaidInInstanceProfileReadyAndTheClassStaysReady() {
        dev.gantry.core.model.NodeClass seed = config.nodeClasses().getFirst();
        config = new GantryConfig(config.nodePools(), List.of(new dev.gantry.core.model.NodeClass(seed.name(), seed.group(),
                seed.kind(), seed.amiFamily(), seed.amiSelectorTerms(), seed.subnetSelectorTerms(),
                seed.securityGroupSelectorTerms(), "KarpenterNodeRole-seed000", null, seed.userData(), seed.tags(),
                seed.blockDeviceMappings(), seed.metadataOptions(), seed.kubelet(), seed.associatePublicIPAddress(),
                seed.detailedMonitoring(), seed.convertedFrom(), seed.capacityReservationSelectorTerms(), seed.annotations())),
                "us-east-1", List.of());
        dev.gantry.core.cloud.NodeRoles roles = dev.gantry.core.cloud.NodeRoles.only("Gantry-demo-NodeInstanceProfile");
        StatusWriter viaRoles = new StatusWriter(new KubeStatusObjects(KubeClients.forUrl(api.url())), nodeClass -> {
            dev.gantry.core.cloud.NodeRoles.InstanceProfile p = roles.of(nodeClass);
            return new NodeClassStatus(List.of(new NodeClassStatus.Subnet("subnet-0a", "us-east-1a", "use1-az1")),
                    List.of(new NodeClassStatus.SecurityGroup("sg-0a", null)), amis, p.name(),
                    dev.gantry.core.status.NodeClassReadiness.howFound(p), List.of());
        }, type -> Optional.empty(), () -> config, () -> diagnostics);

        viaRoles.sync(List.of(), NOW);

        Map<String, Object> nodeClass = json(KubeStatusObjects.EC2_NODE_CLASSES, "seed000");
        assertThat(CrdSchema.select(nodeClass, ".status.instanceProfile")).isEqualTo("Gantry-demo-NodeInstanceProfile");
        List<?> conditions = (List<?>) CrdSchema.select(nodeClass, ".status.conditions");
        assertThat(conditions).anySatisfy(c -> assertThat((Map<String, Object>) c).containsEntry("type", "InstanceProfileReady")
                .containsEntry("status", "True").containsEntry("reason", "DeploymentNodeRole")
                .containsEntry("message", "role KarpenterNodeRole-seed000 is not a node role of this deployment, so nodes "
                        + "run as its own (instance profile Gantry-demo-NodeInstanceProfile); deploy with "
                        + "-c nodeRoles=KarpenterNodeRole-seed000 to launch them with it")
                .containsEntry("lastTransitionTime", "2026-04-01T12:00:00Z"));
        assertThat(conditions).anySatisfy(c -> assertThat((Map<String, Object>) c).containsEntry("type", "Ready")
                .containsEntry("status", "True"));
        assertThat(new CrdSchema(KarpenterCrd.EC2_NODE_CLASS).violations(nodeClass)).isEmpty();
        assertThat(viaRoles.sync(List.of(), NOW.plusSeconds(60)).nodeClassesWritten()).isZero();
    }

    @Test
    void anUnchangedStatusIsNotWrittenAgain() {
        writer.sync(List.of(claim("seed000-a")), NOW);
        int before = api.server.getRequestCount();

        StatusWriter.Report r = writer.sync(List.of(claim("seed000-a")), NOW.plusSeconds(60));

        assertThat(r.nodePoolsWritten() + r.nodeClassesWritten()).isZero();
        assertThat(api.server.getRequestCount() - before).as("two lists").isEqualTo(2);
    }

    @Test
    void aPoolTheReaderRefusedIsMarkedValidationFailedWithItsMessage() {
        diagnostics.put("NodePool/seed000", List.of("spec.limits.cpu: 'twenty' is not a quantity"));
        writer.sync(List.of(), NOW);

        Map<String, Object> pool = json(KubeStatusObjects.NODE_POOLS, "seed000");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"ValidationSucceeded\")].status")).isEqualTo("False");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"ValidationSucceeded\")].message"))
                .isEqualTo("spec.limits.cpu: 'twenty' is not a quantity");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"Ready\")].status")).isEqualTo("False");
        assertThat(new CrdSchema(KarpenterCrd.NODE_POOL).violations(pool)).isEmpty();
    }

    /**
     * {@code kubectl describe ec2nodeclass} of a class the reader refused, as Karpenter v1.14 shows one its runtime
     * validation refused: {@code ValidationSucceeded} False with the messages, Ready False; the four resolution
     * conditions Unknown (nothing was resolved), not False with "no subnet matches". Valid under the CRD, every
     * condition at the class's generation, and not written again by the next sweep.
     */
    @Test
    void aClassTheReaderRefusedFailsValidationWithItsMessagesAndItsSelectorsAreNotResolved() {
        config = new GantryConfig(List.of(), List.of(), "us-east-1", List.of());
        diagnostics.put("EC2NodeClass/seed000", List.of("spec.kubelet.maxPods: -1 is not >= 0"));

        writer.sync(List.of(), NOW);

        Map<String, Object> nodeClass = json(KubeStatusObjects.EC2_NODE_CLASSES, "seed000");
        assertThat(CrdSchema.select(nodeClass, ".status.conditions[?(@.type==\"ValidationSucceeded\")].status")).isEqualTo("False");
        assertThat(CrdSchema.select(nodeClass, ".status.conditions[?(@.type==\"ValidationSucceeded\")].reason"))
                .isEqualTo("ValidationFailed");
        assertThat(CrdSchema.select(nodeClass, ".status.conditions[?(@.type==\"ValidationSucceeded\")].message"))
                .isEqualTo("spec.kubelet.maxPods: -1 is not >= 0");
        assertThat(CrdSchema.select(nodeClass, ".status.conditions[?(@.type==\"Ready\")].status")).isEqualTo("False");
        for (String type : List.of("SubnetsReady", "SecurityGroupsReady", "AMIsReady", "InstanceProfileReady",
                "PlacementGroupReady")) {
            assertThat(CrdSchema.select(nodeClass, ".status.conditions[?(@.type==\"" + type + "\")].status")).as(type)
                    .isEqualTo("Unknown");
        }
        Object generation = CrdSchema.select(nodeClass, ".metadata.generation");
        assertThat((List<?>) CrdSchema.select(nodeClass, ".status.conditions")).hasSize(7)
                .allSatisfy(c -> assertThat(((Map<?, ?>) c).get("observedGeneration")).isEqualTo(generation));
        assertThat(new CrdSchema(KarpenterCrd.EC2_NODE_CLASS).violations(nodeClass)).isEmpty();
        assertThat(writer.sync(List.of(), NOW.plusSeconds(60)).nodeClassesWritten()).isZero();
    }

    @Test
    void anotherAutoscalersPoolAndClassAreLeftAlone() {
        // Neither in Gantry's configuration (not named in GANTRY_NODE_POOLS, or EKS Auto Mode's) nor refused by its reader.
        config = new GantryConfig(List.of(), List.of(), "us-east-1", List.of());

        StatusWriter.Report r = writer.sync(List.of(claim("seed000-a")), NOW);

        assertThat(r.nodePoolsWritten() + r.nodeClassesWritten()).isZero();
        assertThat(json(KubeStatusObjects.NODE_POOLS, "seed000")).doesNotContainKey("status");
        assertThat(json(KubeStatusObjects.EC2_NODE_CLASSES, "seed000")).doesNotContainKey("status");
    }

    @Test
    void aConditionKeepsItsTransitionTimeWhileItsStatusHolds() {
        writer.sync(List.of(claim("seed000-a")), NOW);
        writer.sync(List.of(claim("seed000-a"), claim("seed000-b")), NOW.plusSeconds(120));

        Map<String, Object> pool = json(KubeStatusObjects.NODE_POOLS, "seed000");
        assertThat(CrdSchema.select(pool, ".status.nodes")).isEqualTo(2);
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"Ready\")].lastTransitionTime"))
                .isEqualTo("2026-04-01T12:00:00Z");
    }

    /**
     * Karpenter v1.14's NodeRegistrationHealthy (kubernetes-sigs/karpenter pkg/state/nodepoolhealth/tracker.go,
     * pkg/controllers/nodeclaim/lifecycle/liveness.go): Unknown until the pool's claims say otherwise, False once two of
     * the last four launches were refused (reason LaunchFailed, EC2's words as the message), back to True only when
     * successes outnumber that, never part of Ready; each condition carries the pool's generation and the status its
     * EC2NodeClass's, in Karpenter's field names, valid under its CRD.
     */
    @Test
    void aPoolWhoseLaunchesAreRefusedIsNodeRegistrationUnhealthyWithEc2sWordsAndStaysReady() {
        writer.sync(List.of(), NOW);
        Map<String, Object> pool = json(KubeStatusObjects.NODE_POOLS, "seed000");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].status")).isEqualTo("Unknown");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].reason"))
                .isEqualTo("AwaitingReconciliation");

        String ec2 = "InvalidBlockDeviceMapping: CreateFleet launched no instance: Volume of size 2GB is smaller than snapshot "
                + "'snap-0f59de5aef3442431', expect size >= 4GB";
        List<NodeClaim> claims = new java.util.ArrayList<>(List.of(refused("seed000-r1", ec2, 60)));
        writer.sync(claims, NOW.plusSeconds(70));
        pool = json(KubeStatusObjects.NODE_POOLS, "seed000");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].status"))
                .as("one failure is tolerated").isEqualTo("Unknown");

        claims.add(refused("seed000-r2", ec2, 90));
        writer.sync(claims, NOW.plusSeconds(100));
        pool = json(KubeStatusObjects.NODE_POOLS, "seed000");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].status")).isEqualTo("False");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].reason")).isEqualTo("LaunchFailed");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].message")).isEqualTo(ec2);
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].lastTransitionTime"))
                .isEqualTo("2026-04-01T12:01:30Z");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"Ready\")].status")).isEqualTo("True");
        Object generation = CrdSchema.select(pool, ".metadata.generation");
        assertThat(generation).as("the API server's generation").isInstanceOf(Number.class);
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"Ready\")].observedGeneration")).isEqualTo(generation);
        assertThat(CrdSchema.select(pool, ".status.nodeClassObservedGeneration"))
                .isEqualTo(CrdSchema.select(json(KubeStatusObjects.EC2_NODE_CLASSES, "seed000"), ".metadata.generation"));
        assertThat(new CrdSchema(KarpenterCrd.NODE_POOL).violations(pool)).isEmpty();
        assertThat(writer.sync(claims, NOW.plusSeconds(110)).nodePoolsWritten()).as("read back equal").isZero();

        claims.add(registered("seed000-ok1", 200));
        claims.add(registered("seed000-ok2", 300));
        writer.sync(claims, NOW.plusSeconds(310));
        pool = json(KubeStatusObjects.NODE_POOLS, "seed000");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].status"))
                .as("two failures in the last four").isEqualTo("False");
        claims.add(registered("seed000-ok3", 400));
        writer.sync(claims, NOW.plusSeconds(410));
        pool = json(KubeStatusObjects.NODE_POOLS, "seed000");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].status")).isEqualTo("True");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].reason"))
                .isEqualTo("NodeRegistrationHealthy");
    }

    /**
     * A change to the NodePool's spec, or to its EC2NodeClass's, starts NodeRegistrationHealthy over (Karpenter's
     * registrationhealth controller): Unknown, and the failures from before the change no longer count.
     */
    @Test
    void aChangeToThePoolOrItsClassStartsNodeRegistrationHealthyOver() {
        String ec2 = "UnauthorizedOperation: CreateFleet: You are not authorized to perform this operation.";
        List<NodeClaim> claims = List.of(refused("seed000-r1", ec2, 60), refused("seed000-r2", ec2, 90));
        writer.sync(List.of(), NOW);
        writer.sync(claims, NOW.plusSeconds(100));
        assertThat(CrdSchema.select(json(KubeStatusObjects.NODE_POOLS, "seed000"),
                ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].status")).isEqualTo("False");

        api.client.genericKubernetesResources(KubeStatusObjects.NODE_POOLS).withName("seed000").edit(p -> {
            ((Map<String, Object>) p.getAdditionalProperties().get("spec")).put("weight", 7);
            return p;
        });
        writer.sync(claims, NOW.plusSeconds(160));
        Map<String, Object> pool = json(KubeStatusObjects.NODE_POOLS, "seed000");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].status")).isEqualTo("Unknown");
        assertThat(CrdSchema.select(pool, ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].observedGeneration"))
                .isEqualTo(CrdSchema.select(pool, ".metadata.generation")).isNotEqualTo(1);

        List<NodeClaim> again = new java.util.ArrayList<>(claims);
        again.add(refused("seed000-r3", ec2, 200));
        again.add(refused("seed000-r4", ec2, 210));
        writer.sync(again, NOW.plusSeconds(220));
        assertThat(CrdSchema.select(json(KubeStatusObjects.NODE_POOLS, "seed000"),
                ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].status")).isEqualTo("False");
        api.client.genericKubernetesResources(KubeStatusObjects.EC2_NODE_CLASSES).withName("seed000").edit(c -> {
            ((Map<String, Object>) c.getAdditionalProperties().get("spec")).put("userData", "# fixed");
            return c;
        });
        writer.sync(again, NOW.plusSeconds(280));
        assertThat(CrdSchema.select(json(KubeStatusObjects.NODE_POOLS, "seed000"),
                ".status.conditions[?(@.type==\"NodeRegistrationHealthy\")].status")).isEqualTo("Unknown");
    }

    private static NodeClaim refused(String name, String why, long at) {
        return NodeClaim.launching(name, "seed000", null, List.of(), List.of("t3a.large"), List.of(), "t3a.large",
                "us-east-1a", "on-demand", 0.0752, NOW.plusSeconds(at - 5))
                .draining(NodeClaim.launchRefused(why), NOW.plusSeconds(at)).terminated(NOW.plusSeconds(at), java.time.Duration.ofHours(1));
    }

    private static NodeClaim registered(String name, long at) {
        return claim(name).registered("node-" + name, NOW.plusSeconds(at));
    }

    private static NodeClaim claim(String name) {
        return NodeClaim.launching(name, "seed000", null, List.of(), List.of("t3a.large"), List.of(), "t3a.large",
                "us-east-1a", "on-demand", 0.0752, NOW.minusSeconds(300))
                .launched("i-" + name, "t3a.large", "us-east-1a", "on-demand", 0.0752, NOW.minusSeconds(290));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> json(io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext kind, String name) {
        return Serialization.unmarshal(Serialization.asJson(api.client.genericKubernetesResources(kind).withName(name).get()), Map.class);
    }
}
