package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.model.NodeClass;
import dev.gantry.testing.Ec2Resources.InstanceTypeInfo;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.JsonResponses;
import dev.gantry.testing.RecordedRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An alias's accelerated variants, as Karpenter resolves them: GPU types launch on the NVIDIA image, Inferentia and
 * Trainium on the Neuron one, the rest on the standard image; an image chosen by id serves every type of its
 * architecture. Real SDK against the stub, whose EC2 refuses a type whose architecture is not its image's.
 */
class Ec2CloudProviderImageVariantsTest extends Ec2StubTest {
    private static final List<String> OD = List.of("on-demand");
    private static final String STANDARD_AMD64 = "ami-0a1b2c3d4e5f60001";

    @Override
    protected Ec2State state() {
        Ec2State ec2 = Ec2State.withDefaults();
        ec2.addInstanceType(new InstanceTypeInfo("g5.xlarge", 4, 16384, "x86_64", 4, 15, "nitro"), Ec2State.ZONES, "0.4000");
        ec2.addInstanceType(new InstanceTypeInfo("inf2.xlarge", 4, 16384, "x86_64", 4, 15, "nitro"), Ec2State.ZONES, "0.3000");
        ec2.addInstanceType(new InstanceTypeInfo("g5g.xlarge", 4, 8192, "arm64", 4, 15, "nitro"), Ec2State.ZONES, "0.2000");
        return ec2;
    }

    /** Each launch template's image, by the instance types of its overrides. */
    private Map<String, String> imageByType() {
        Map<String, String> imageOfTemplate = new LinkedHashMap<>();
        stub.requests("CreateLaunchTemplate").forEach(r -> imageOfTemplate.put(r.param("LaunchTemplateName"),
                r.param("LaunchTemplateData.ImageId")));
        RecordedRequest fleet = stub.lastRequest("CreateFleet");
        Map<String, String> out = new LinkedHashMap<>();
        for (int c = 1; fleet.param("LaunchTemplateConfigs." + c + ".LaunchTemplateSpecification.LaunchTemplateName") != null; c++) {
            String image = imageOfTemplate.get(fleet.param("LaunchTemplateConfigs." + c + ".LaunchTemplateSpecification.LaunchTemplateName"));
            fleet.members("LaunchTemplateConfigs." + c + ".Overrides").forEach(o -> out.put(o.get("InstanceType"), image));
        }
        return out;
    }

    @Test
    void gpuAndNeuronTypesLaunchOnTheAliasesVariantsAndTheRestOnItsStandardImage() {
        var nc = LaunchFixtures.al2023();
        var result = provider.launch(LaunchFixtures.request("gpu-mix01", LaunchFixtures.pool(), nc,
                LaunchFixtures.types(nc, "g5.xlarge", "inf2.xlarge", "g5g.xlarge", "m5.large"), OD, List.of("us-east-1a")));

        assertThat(imageByType()).isEqualTo(Map.of("g5.xlarge", Ec2State.NVIDIA_AMD64, "inf2.xlarge", Ec2State.NEURON_AMD64,
                "g5g.xlarge", Ec2State.NVIDIA_ARM64, "m5.large", STANDARD_AMD64));
        assertThat(result.instances()).singleElement().satisfies(i -> assertThat(i.instanceType()).isEqualTo("g5.xlarge"));
        assertThat(stub.ec2().instances()).singleElement().satisfies(i -> assertThat(i.imageId()).isEqualTo(Ec2State.NVIDIA_AMD64));
    }

    @Test
    void aGpuTypeTheAliasPublishesNoGpuImageForIsNotLaunched() {
        // A version whose NVIDIA parameters are not published: Karpenter maps no image to GPU types, so none launches.
        stub.onTarget("AmazonSSM.GetParameter", JsonResponses.ssmParameters(Map.of(
                "/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/standard/recommended/image_id", STANDARD_AMD64)));
        var nc = LaunchFixtures.al2023();

        provider.launch(LaunchFixtures.request("gpu-mix02", LaunchFixtures.pool(), nc,
                LaunchFixtures.types(nc, "g5.xlarge", "m5.large"), OD, List.of("us-east-1a")));
        assertThat(imageByType()).isEqualTo(Map.of("m5.large", STANDARD_AMD64));

        // Only GPU types: refused for the configuration, in words that say why (not out of capacity), and nothing sent.
        int fleets = stub.requests("CreateFleet").size();
        assertThatThrownBy(() -> provider.launch(LaunchFixtures.request("gpu-only03", LaunchFixtures.pool(), nc,
                LaunchFixtures.types(nc, "g5.xlarge"), OD, List.of("us-east-1a"))))
                .isInstanceOfSatisfying(CloudException.class, e -> {
                    assertThat(e).isNotInstanceOf(InsufficientCapacity.class);
                    assertThat(e.code()).isEqualTo("NoCompatibleImage");
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).contains("no image EC2NodeClass default selects serves [g5.xlarge]")
                            .contains("amd64/standard=" + STANDARD_AMD64);
                });
        assertThat(stub.requests("CreateFleet")).hasSize(fleets);
    }

    @Test
    void anImageChosenByIdServesEveryTypeOfItsArchitectureGpuTypesToo() {
        var nc = LaunchFixtures.withAmis(LaunchFixtures.al2023(),
                List.of(new NodeClass.AmiSelectorTerm(null, Ec2State.NVIDIA_AMD64, null, null, Map.of(), null)));

        provider.launch(LaunchFixtures.request("gpu-byid04", LaunchFixtures.pool(), nc,
                LaunchFixtures.types(nc, "g5.xlarge", "m5.large"), OD, List.of("us-east-1a")));

        assertThat(imageByType()).isEqualTo(Map.of("g5.xlarge", Ec2State.NVIDIA_AMD64, "m5.large", Ec2State.NVIDIA_AMD64));
        assertThat(provider.resolve(nc).orElseThrow().images()).isEqualTo(Map.of("amd64", Ec2State.NVIDIA_AMD64));
    }

    @Test
    void aPinnedVariantImageKeepsServingItsKey() {
        // How a paused rollout pins an alias class: each held image by id, for the key it served.
        var nc = LaunchFixtures.withAmis(LaunchFixtures.al2023(),
                List.of(NodeClass.AmiSelectorTerm.pinned(STANDARD_AMD64, "amd64/standard"),
                        NodeClass.AmiSelectorTerm.pinned(Ec2State.NVIDIA_AMD64, "amd64/nvidia")));

        provider.launch(LaunchFixtures.request("gpu-pin05", LaunchFixtures.pool(), nc,
                LaunchFixtures.types(nc, "g5.xlarge", "m5.large", "inf2.xlarge"), OD, List.of("us-east-1a")));

        assertThat(imageByType()).isEqualTo(Map.of("g5.xlarge", Ec2State.NVIDIA_AMD64, "m5.large", STANDARD_AMD64));
    }
}
