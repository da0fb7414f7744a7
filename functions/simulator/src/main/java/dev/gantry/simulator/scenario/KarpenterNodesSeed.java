package dev.gantry.simulator.scenario;

import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.simulator.world.aws.KarpenterLaunched;
import dev.gantry.simulator.world.aws.SimulatedCloud;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts the scenario's {@code cluster: {karpenter}} nodes in the world at the start of the run ({@link KarpenterLaunched}):
 * each priced at its offering in the catalogue Gantry plans with. A NodePool the config does not define may be named
 * (Karpenter ran it, Gantry does not manage it: its nodes must be left alone); an instance type the catalogue does not
 * offer in that zone is an error naming the scenario line.
 */
public final class KarpenterNodesSeed {
    private KarpenterNodesSeed() {
    }

    public static List<SimulatedInstance> seed(Path file, List<KarpenterNodes> specs, SimulatedCloud cloud, InMemoryCluster cluster,
                                               String clusterName, GantryConfig config, Catalog catalog, Instant start) {
        List<SimulatedInstance> out = new ArrayList<>();
        for (KarpenterNodes spec : specs) {
            NodePool pool = config.nodePool(spec.nodePool()).orElseGet(() -> unmanaged(spec.nodePool(), config));
            NodeClass nodeClass = config.nodeClassOf(pool).orElse(config.nodeClasses().getFirst());
            InstanceType type = catalog.instanceTypes(nodeClass).stream().filter(t -> t.name().equals(spec.instanceType()))
                    .findFirst().orElseThrow(() -> new ScenarioException(file.toString(), spec.line(),
                            "cluster.karpenter.instanceType: the catalogue has no '" + spec.instanceType() + "'"));
            double price = type.offerings().stream().filter(o -> o.zone().equals(spec.zone())
                    && o.capacityType().equals(spec.capacityType())).mapToDouble(Offering::pricePerHour).findFirst()
                    .orElseThrow(() -> new ScenarioException(file.toString(), spec.line(), "cluster.karpenter: "
                            + spec.instanceType() + " is not offered " + spec.capacityType() + " in " + spec.zone()));
            for (int i = 0; i < spec.count(); i++) {
                out.add(KarpenterLaunched.seed(cloud, cluster, clusterName, config.region(), out.size() + 1, pool, type,
                        spec.zone(), spec.capacityType(), price, start.minus(spec.age())));
            }
        }
        return out;
    }

    /** A pool Karpenter ran that Gantry's config does not define: the first pool's template under that name. */
    private static NodePool unmanaged(String name, GantryConfig config) {
        NodePool first = config.nodePools().getFirst();
        return new NodePool(name, first.annotations(), first.template(), first.disruption(), first.limits(), first.weight(),
                first.convertedFrom(), first.replicas());
    }
}
