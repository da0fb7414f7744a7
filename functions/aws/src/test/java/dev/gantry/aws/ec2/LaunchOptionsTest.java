package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.testing.Ec2PlacementGroups;
import dev.gantry.testing.Ec2Resources.InstanceTypeInfo;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.RecordedRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An EC2NodeClass's {@code ipPrefixCount}, {@code connectionTracking}, {@code cpuOptions} and {@code context} reach EC2
 * as Karpenter sends them (aws {@code pkg/providers/launchtemplate}, {@code pkg/providers/instance}): the first two on
 * the launch template's primary interface, the CPU options on the template, the context on CreateFleet. They were read
 * and warned of as ignored.
 */
class LaunchOptionsTest extends Ec2StubTest {
    private static final NodeClass.ConnectionTracking TRACKING = new NodeClass.ConnectionTracking(3600, 120, 30);
    private static final String PG = "pg-0123456789abcdef0";

    @Override
    protected Ec2State state() {
        // A Xen type, as DescribeInstanceTypes reports c4.large.
        Ec2State state = Ec2State.withDefaults().addInstanceType(new InstanceTypeInfo("c4.large", 2, 3840, "x86_64", 3, 10, "xen"),
                Ec2State.ZONES, "0.0300");
        state.placementGroups().add(new Ec2PlacementGroups.PlacementGroup(PG, "training", "cluster", "available"))
                .add(new Ec2PlacementGroups.PlacementGroup("pg-0dead0000000000000", "retired", "spread", "deleted"));
        return state;
    }

    @Test
    void thePrimaryInterfaceCarriesThePrefixesAndConnectionTrackingAndTheFleetItsContext() {
        NodeClass nc = LaunchFixtures.al2023().withContext("ctx-0a1b2c3d")
                .withNetworking(new NodeClass.Networking(2, TRACKING));
        NodePool pool = LaunchFixtures.pool("net", Map.of(), List.of(), List.of());

        LaunchResult result = provider.launch(LaunchFixtures.request("net-a1b2c", pool, nc,
                LaunchFixtures.types(nc, "m5.large"), List.of("on-demand"), Ec2State.ZONES));

        assertThat(result.instances()).hasSize(1);
        RecordedRequest template = stub.lastRequest("CreateLaunchTemplate");
        String ni = "LaunchTemplateData.NetworkInterface.1.";
        assertThat(template.params()).containsEntry(ni + "DeviceIndex", "0")
                .containsEntry(ni + "Ipv4PrefixCount", "2")
                .containsEntry(ni + "ConnectionTrackingSpecification.TcpEstablishedTimeout", "3600")
                .containsEntry(ni + "ConnectionTrackingSpecification.UdpStreamTimeout", "120")
                .containsEntry(ni + "ConnectionTrackingSpecification.UdpTimeout", "30")
                .containsKey(ni + "SecurityGroupId.1")
                .doesNotContainKey(ni + "AssociatePublicIpAddress")
                .as("the groups go on the interface, never beside it (EC2 refuses both)")
                .doesNotContainKey("LaunchTemplateData.SecurityGroupId.1");
        assertThat(stub.lastRequest("CreateFleet").param("Context")).isEqualTo("ctx-0a1b2c3d");
    }

    @Test
    void nestedVirtualizationGoesOnTheTemplatesCpuOptions() {
        NodeClass nc = LaunchFixtures.al2023().withCpuOptions(new NodeClass.CpuOptions("enabled"));
        NodePool pool = LaunchFixtures.pool("kata", Map.of(), List.of(), List.of());

        provider.launch(LaunchFixtures.request("kata-a1b2c", pool, nc, LaunchFixtures.types(nc, "c8i.large"),
                List.of("on-demand"), Ec2State.ZONES));

        assertThat(stub.lastRequest("CreateLaunchTemplate").param("LaunchTemplateData.CpuOptions.NestedVirtualization"))
                .isEqualTo("enabled");
        assertThat(LaunchFixtures.types(nc, "m5.large")).as("the catalogue offers no type without it").containsOnlyNulls();
    }

    /**
     * On an IPv6 cluster (EKS gives it serviceIpv6Cidr only) the primary interface has an IPv6 primary address and IPv6
     * prefixes, and the kubelet's cluster DNS is the service CIDR's tenth IPv6 address. Gantry could not start there:
     * the launcher required an IPv4 service CIDR.
     */
    @Test
    void anIpv6ClustersNodesGetAnIpv6PrimaryAddressPrefixesAndClusterDns() {
        Ec2LauncherConfig v4 = LaunchFixtures.config(clock);
        Ec2LauncherConfig v6 = new Ec2LauncherConfig(v4.clusterName(), v4.kubernetesVersion(), v4.endpoint(),
                v4.certificateAuthority(), "fd30:1c53:5f8a::/108", v4.defaultInstanceProfile(), clock, v4.nodeRoleProfiles());
        Ec2CloudProvider ipv6 = new Ec2CloudProvider(clients.ec2(), clients.ssm(), v6);
        NodeClass nc = LaunchFixtures.al2023().withNetworking(new NodeClass.Networking(2, null));

        ipv6.launch(LaunchFixtures.request("v6-a1b2c", LaunchFixtures.pool("v6", Map.of(), List.of(), List.of()), nc,
                LaunchFixtures.types(nc, "m5.large"), List.of("on-demand"), Ec2State.ZONES));

        RecordedRequest template = stub.lastRequest("CreateLaunchTemplate");
        String ni = "LaunchTemplateData.NetworkInterface.1.";
        assertThat(template.params()).containsEntry(ni + "PrimaryIpv6", "true").containsEntry(ni + "Ipv6AddressCount", "1")
                .containsEntry(ni + "Ipv6PrefixCount", "2").doesNotContainKey(ni + "Ipv4PrefixCount")
                .containsKey(ni + "SecurityGroupId.1");
        String userData = new String(java.util.Base64.getDecoder().decode(template.param("LaunchTemplateData.UserData")),
                java.nio.charset.StandardCharsets.UTF_8);
        assertThat(userData).contains("cidr: fd30:1c53:5f8a::/108").contains("- fd30:1c53:5f8a::a");
    }

    /**
     * {@code placementGroupSelector} (by name or id) launches into the group EC2 lists as available: the template's
     * {@code Placement.GroupId}, and the node labelled with it at registration (Karpenter's
     * {@code karpenter.k8s.aws/placement-group-id}); what the class selects now carries the id for drift.
     */
    @Test
    void aPlacementGroupSelectorLaunchesIntoTheGroupAndLabelsTheNode() {
        for (NodeClass.PlacementGroupSelector selector : List.of(new NodeClass.PlacementGroupSelector("training", null),
                new NodeClass.PlacementGroupSelector(null, PG))) {
            NodeClass nc = LaunchFixtures.al2023().withPlacementGroup(selector);
            provider.launch(LaunchFixtures.request("pg-" + (selector.id() == null ? "name" : "id0"),
                    LaunchFixtures.pool("hpc", Map.of(), List.of(), List.of()), nc, LaunchFixtures.types(nc, "m5.large"),
                    List.of("on-demand"), Ec2State.ZONES));

            RecordedRequest template = stub.lastRequest("CreateLaunchTemplate");
            assertThat(template.param("LaunchTemplateData.Placement.GroupId")).as(selector.toString()).isEqualTo(PG);
            String userData = new String(java.util.Base64.getDecoder().decode(template.param("LaunchTemplateData.UserData")),
                    java.nio.charset.StandardCharsets.UTF_8);
            assertThat(userData).contains("karpenter.k8s.aws/placement-group-id=" + PG);
            assertThat(provider.resolve(nc).orElseThrow().placementGroupId()).isEqualTo(PG);
        }
        assertThat(provider.resolve(LaunchFixtures.al2023()).orElseThrow().placementGroupId()).as("no selector").isEmpty();
    }

    /** A group EC2 does not list as available (unknown, or deleted) launches nothing, and says which. */
    @Test
    void aPlacementGroupEc2DoesNotListLaunchesNothing() {
        for (NodeClass.PlacementGroupSelector selector : List.of(new NodeClass.PlacementGroupSelector("nowhere", null),
                new NodeClass.PlacementGroupSelector(null, "pg-0ffffffffffffffff"),
                new NodeClass.PlacementGroupSelector("retired", null))) {
            NodeClass nc = LaunchFixtures.al2023().withPlacementGroup(selector);
            assertThatThrownBy(() -> provider.launch(LaunchFixtures.request("pg-gone", LaunchFixtures.pool("hpc",
                    Map.of(), List.of(), List.of()), nc, LaunchFixtures.types(nc, "m5.large"), List.of("on-demand"),
                    Ec2State.ZONES))).isInstanceOfSatisfying(CloudException.class, e -> {
                        assertThat(e.code()).isEqualTo("PlacementGroupNotFound");
                        assertThat(e.retryable()).isFalse();
                        assertThat(e.getMessage()).contains(selector.toString());
                    });
            assertThat(provider.resolve(nc).orElseThrow().placementGroupId()).as("its nodes drift").isEmpty();
        }
        assertThat(stub.requests("CreateFleet")).isEmpty();
        NodeClass gone = LaunchFixtures.al2023().withPlacementGroup(new NodeClass.PlacementGroupSelector("nowhere", null));
        assertThat(provider.status(gone).conditions()).as("the class status says so: the provisioner's gate closes it")
                .contains(dev.gantry.core.status.NodeClassReadiness.placementGroupNotFound("nowhere"));
        assertThat(provider.status(LaunchFixtures.al2023().withPlacementGroup(new NodeClass.PlacementGroupSelector(null, PG)))
                .conditions()).isEmpty();
    }

    /**
     * Pods asking for {@code vpc.amazonaws.com/efa} get their type's EFA interfaces, one per network card (aws
     * {@code generateNetworkInterfaces}): the catalogue offered EFA capacity, but the instances launched without EFA
     * interfaces, so the device plugin advertised none and the pods never ran.
     */
    @Test
    void podsAskingForEfaGetTheirTypesEfaInterfaces() {
        NodeClass nc = LaunchFixtures.al2023();
        NodePool pool = LaunchFixtures.pool("ml", Map.of(), List.of(), List.of());
        LaunchRequest plain = LaunchFixtures.request("ml-a1b2c", pool, nc, LaunchFixtures.types(nc, "c6in.32xlarge"),
                List.of("on-demand"), Ec2State.ZONES);
        LaunchRequest efa = new LaunchRequest("ml-d3e4f", pool, nc, plain.options(), plain.requirements(), plain.labels(),
                plain.taints(), 1, dev.gantry.core.model.Resources.fromQuantities(Map.of(
                        "cpu", dev.gantry.core.model.Quantity.parse("8"),
                        "vpc.amazonaws.com/efa", dev.gantry.core.model.Quantity.parse("1"))));

        provider.launch(efa);
        RecordedRequest template = stub.lastRequest("CreateLaunchTemplate");
        String ni = "LaunchTemplateData.NetworkInterface.";
        for (int card = 0; card < 2; card++) { // c6in.32xlarge: two EFA interfaces, on its two network cards
            assertThat(template.params()).containsEntry(ni + (card + 1) + ".NetworkCardIndex", String.valueOf(card))
                    .containsEntry(ni + (card + 1) + ".DeviceIndex", card == 0 ? "0" : "1")
                    .containsEntry(ni + (card + 1) + ".InterfaceType", "efa").containsKey(ni + (card + 1) + ".SecurityGroupId.1");
        }
        assertThat(template.params()).doesNotContainKey(ni + "3.InterfaceType").doesNotContainKey("LaunchTemplateData.SecurityGroupId.1");

        provider.launch(plain);
        assertThat(stub.lastRequest("CreateLaunchTemplate").paramsWithPrefix(ni)).as("no EFA asked for: no interfaces").isEmpty();
    }

    /**
     * A launch delivered twice, with every option of this class at once (context, prefixes, connection tracking, CPU
     * options, a placement group and EFA): the same template (its name hashes all of them) and the same CreateFleet
     * under the same token, so EC2 answers the first fleet again and one instance runs.
     */
    @Test
    void aLaunchWithEveryOptionDeliveredTwiceLaunchesOnce() {
        NodeClass nc = LaunchFixtures.al2023().withContext("ctx-0a1b2c3d").withNetworking(new NodeClass.Networking(1, TRACKING))
                .withPlacementGroup(new NodeClass.PlacementGroupSelector("training", null));
        NodePool pool = LaunchFixtures.pool("ml", Map.of(), List.of(), List.of());
        LaunchRequest plain = LaunchFixtures.request("ml-twice", pool, nc, LaunchFixtures.types(nc, "c6in.32xlarge"),
                List.of("on-demand"), Ec2State.ZONES);
        LaunchRequest request = new LaunchRequest(plain.clientToken(), pool, nc, plain.options(), plain.requirements(),
                plain.labels(), plain.taints(), 1, dev.gantry.core.model.Resources.fromQuantities(Map.of(
                        "vpc.amazonaws.com/efa", dev.gantry.core.model.Quantity.parse("1"))));

        LaunchResult first = provider.launch(request);
        LaunchResult again = provider.launch(request);

        assertThat(again.instances()).extracting(i -> i.instanceId())
                .isEqualTo(first.instances().stream().map(i -> i.instanceId()).toList());
        assertThat(stub.ec2().instances()).hasSize(1);
        assertThat(stub.requests("CreateLaunchTemplate")).hasSize(1);
        assertThat(stub.requests("CreateFleet")).hasSize(2)
                .allSatisfy(q -> assertThat(q.param("Context")).isEqualTo("ctx-0a1b2c3d"));
    }

    @Test
    void aClassWithoutThemSendsNeitherAnInterfaceNorAContext() {
        provider.launch(LaunchFixtures.request("plain-a1b2c", List.of("on-demand")));

        assertThat(stub.lastRequest("CreateLaunchTemplate").paramsWithPrefix("LaunchTemplateData.NetworkInterface")).isEmpty();
        assertThat(stub.lastRequest("CreateLaunchTemplate").param("LaunchTemplateData.SecurityGroupId.1")).isNotNull();
        assertThat(stub.lastRequest("CreateFleet").param("Context")).isNull();
        assertThat(stub.lastRequest("CreateLaunchTemplate").paramsWithPrefix("LaunchTemplateData.CpuOptions")).isEmpty();
    }

    /**
     * The stub is as strict as EC2: a Xen type launched from a template with connection tracking fails its override
     * with EC2's words. The catalogue never offers one ({@code CatalogTest}); this is the launch it would have been.
     */
    @Test
    void ec2RefusesConnectionTrackingOnAXenType() {
        NodeClass plain = LaunchFixtures.al2023();
        NodeClass nc = plain.withNetworking(new NodeClass.Networking(null, TRACKING));
        NodePool pool = LaunchFixtures.pool("xen", Map.of(), List.of(), List.of());

        assertThatThrownBy(() -> provider.launch(LaunchFixtures.request("xen-a1b2c", pool, nc,
                LaunchFixtures.types(plain, "c4.large"), List.of("on-demand"), Ec2State.ZONES)))
                .isInstanceOf(CloudException.class)
                .hasMessageContaining("InvalidParameterValue")
                .hasMessageContaining("The instance type c4.large does not support configurable connection tracking");
    }

    @Test
    void ec2RefusesMorePrefixesThanTheInterfaceHasSlots() {
        NodeClass nc = LaunchFixtures.al2023().withNetworking(new NodeClass.Networking(10, null));
        NodePool pool = LaunchFixtures.pool("prefixes", Map.of(), List.of(), List.of());

        // m5.large has 10 IPv4 addresses per interface: the primary and at most 9 prefixes.
        assertThatThrownBy(() -> provider.launch(LaunchFixtures.request("prefixes-a1b2c", pool, nc,
                LaunchFixtures.types(LaunchFixtures.al2023(), "m5.large"), List.of("on-demand"), Ec2State.ZONES)))
                .isInstanceOf(CloudException.class).hasMessageContaining("InvalidParameterValue");
    }
}
