package dev.gantry.simulator.deployed;

import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.status.ClaimProjection;
import dev.gantry.core.status.NodeClaimProjector;
import dev.gantry.core.status.NodeClassStatus;
import dev.gantry.core.status.StatusWriter;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.simulator.world.kube.ApiServer;
import dev.gantry.simulator.world.kube.KarpenterObjects;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sweep's cluster-object steps as the deployment wires them (the composition root's {@code ClusterObjects}), over
 * the simulated API server's Karpenter objects: the NodeClaim projection and NodePool/EC2NodeClass status. Capacity
 * comes from the catalogue the provisioner plans with; a NodeClass resolves to the subnets its terms select (the
 * simulated VPC's, {@code SimulatedSubnets}), one security group, one AMI per architecture and its instance profile
 * (the simulated EC2 matches no other selector).
 */
public final class SimulatedClusterObjects {
    private SimulatedClusterObjects() {
    }

    /**
     * The objects as the deploy-time apply leaves them (the config's NodePools and EC2NodeClasses), kept in step with the
     * API server's configuration: a NodePool or EC2NodeClass a scenario event applies or deletes gains or loses its status.
     */
    public static KarpenterObjects objects(ApiServer api, Clock clock, GantryConfig config) {
        KarpenterObjects objects = new KarpenterObjects(api, clock, config.nodePools().stream().map(NodePool::name).toList(),
                config.nodeClasses().stream().map(NodeClass::name).toList());
        api.config().onWrite(w -> objects.configWritten(w.key(), w.deleted()));
        return objects;
    }

    /** Hooks both steps to {@code sweep}, over the configuration {@code read} (the one its services were built for). */
    public static void hook(KarpenterObjects objects, SweepService sweep, TerminationService termination, ClusterConfig read,
                            Catalog catalog, ApiServer api) {
        GantryConfig config = read.config();
        ClaimProjection.CapacityOf capacity = capacity(config, catalog);
        sweep.withNodeClaimObjects(new NodeClaimProjector(objects, new ClaimProjection(capacity, ClaimProjection.Drift.FROM_STAMP),
                        termination, () -> config).withEvents(api))
                .withStatus(new StatusWriter(objects, resolver(config), capacity, () -> config, read::invalid));
    }

    private static ClaimProjection.CapacityOf capacity(GantryConfig config, Catalog catalog) {
        Map<String, Optional<ClaimProjection.Capacity>> cache = new ConcurrentHashMap<>();
        return type -> cache.computeIfAbsent(type, t -> config.nodeClasses().stream().findFirst()
                .flatMap(nc -> catalog.instanceTypes(nc).stream().filter(it -> it.name().equals(t)).findFirst())
                .map((InstanceType it) -> new ClaimProjection.Capacity(it.capacity(), it.allocatable())));
    }

    /**
     * The simulated deployment's node roles: the stack's own profile, and no role named with {@code -c nodeRoles=} (as
     * a default deploy), so a class naming Karpenter's node role says it runs as the stack's.
     */
    private static final dev.gantry.core.cloud.NodeRoles NODE_ROLES = dev.gantry.core.cloud.NodeRoles.only("gantry-node");

    /** What each NodeClass resolves to in the simulated account, for its status and the provisioner's gate. */
    static dev.gantry.core.status.NodeClassResolver resolver(GantryConfig config) {
        return nc -> resolve(nc, config);
    }

    private static NodeClassStatus resolve(NodeClass nodeClass, GantryConfig config) {
        List<NodeClassStatus.Subnet> subnets = dev.gantry.simulator.world.aws.SimulatedSubnets.selected(nodeClass, config.zones())
                .stream().map(s -> new NodeClassStatus.Subnet(s.id(), s.zone(), null)).toList();
        List<NodeClassStatus.Ami> amis = List.of("amd64", "arm64").stream().map(arch -> new NodeClassStatus.Ami(
                "ami-sim-" + arch, null, List.of(Requirement.of("kubernetes.io/arch", Operator.In, arch)))).toList();
        dev.gantry.core.cloud.NodeRoles.InstanceProfile profile = NODE_ROLES.of(nodeClass);
        return new NodeClassStatus(subnets, List.of(new NodeClassStatus.SecurityGroup("sg-simulated", null)), amis,
                profile.name(), dev.gantry.core.status.NodeClassReadiness.howFound(profile));
    }
}
