package dev.gantry.aws.ec2;

import dev.gantry.core.catalog.InstanceTypeDescriptions;
import dev.gantry.core.catalog.InstanceTypeSpec;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTypesRequest;
import software.amazon.awssdk.services.ec2.model.GpuDeviceInfo;
import software.amazon.awssdk.services.ec2.model.InstanceTypeInfo;
import software.amazon.awssdk.services.ec2.model.NetworkCardInfo;
import software.amazon.awssdk.services.ec2.model.NetworkInfo;
import software.amazon.awssdk.services.ec2.model.NeuronDeviceInfo;
import software.amazon.awssdk.services.ec2.model.SupportedAdditionalProcessorFeature;

/**
 * {@link InstanceTypeDescriptions} over EC2 DescribeInstanceTypes: one call naming the type, every page followed
 * (EC2 pages even a named query), the answer mapped as Karpenter reads it (aws
 * {@code pkg/providers/instancetype/types.go}: {@code computeRequirements} for the capacity types from
 * {@code SupportedUsageClasses}, {@code ENILimitedPods} for the pod count from the default network card's
 * {@code MaximumNetworkInterfaces} and {@code Ipv4AddressesPerInterface}).
 *
 * <p>Types are asked for one at a time: EC2 refuses a whole request with {@code InvalidInstanceType} when any name
 * in it is unknown, so one unknown preview type must not hide the others. An unknown type is cached as unknown;
 * each answer is kept {@link #TTL} (Karpenter re-reads instance types every 5 minutes); a failure is not cached and
 * is thrown as a {@link dev.gantry.core.cloud.CloudException} sorted by {@link Ec2Errors}.
 *
 * <p>Not read (no DescribeInstanceTypes field gives them): trunking and branch ENIs (Karpenter's generated VPC
 * limits), so a preview type has no {@code vpc.amazonaws.com/pod-eni} capacity.
 */
public final class Ec2InstanceTypeDescriptions implements InstanceTypeDescriptions {
    static final Duration TTL = Duration.ofMinutes(5);

    private final Ec2Client ec2;
    private final TtlCache<String, Optional<Described>> cache;

    public Ec2InstanceTypeDescriptions(Ec2Client ec2, Clock clock) {
        this.ec2 = ec2;
        this.cache = new TtlCache<>(clock, TTL);
    }

    @Override
    public Optional<Described> describe(String instanceType) {
        return cache.get(instanceType, this::call);
    }

    private Optional<Described> call(String instanceType) {
        List<InstanceTypeInfo> found = new ArrayList<>();
        try {
            ec2.describeInstanceTypesPaginator(DescribeInstanceTypesRequest.builder().instanceTypesWithStrings(instanceType).build())
                    .instanceTypes().forEach(found::add);
        } catch (SdkException e) {
            if ("InvalidInstanceType".equals(Ec2Errors.code(e))) {
                return Optional.empty();
            }
            throw Ec2Errors.toCloud("DescribeInstanceTypes", e);
        }
        return found.stream().filter(i -> instanceType.equals(i.instanceTypeAsString())).findFirst()
                .map(Ec2InstanceTypeDescriptions::described);
    }

    /** One DescribeInstanceTypes item as the catalogue's facts, and the capacity types it is sold as. */
    static Described described(InstanceTypeInfo i) {
        InstanceTypeSpec.Builder b = InstanceTypeSpec.builder(i.instanceTypeAsString());
        if (i.vCpuInfo() != null) {
            b.vcpu(i.vCpuInfo().defaultVCpus());
        }
        if (i.memoryInfo() != null && i.memoryInfo().sizeInMiB() != null) {
            b.memoryMiB(i.memoryInfo().sizeInMiB());
        }
        if (i.processorInfo() != null) {
            List<String> archs = i.processorInfo().supportedArchitecturesAsStrings();
            b.arch(archs.contains("x86_64") ? "amd64" : archs.contains("arm64") ? "arm64" : null);
            if (i.processorInfo().manufacturer() != null) {
                b.cpuManufacturer(i.processorInfo().manufacturer().toLowerCase(Locale.ROOT));
            }
            if (i.processorInfo().sustainedClockSpeedInGhz() != null) {
                b.cpuSustainedClockSpeedMhz((int) Math.round(i.processorInfo().sustainedClockSpeedInGhz() * 1000));
            }
        }
        network(b, i.networkInfo());
        if (i.gpuInfo() != null && !i.gpuInfo().gpus().isEmpty()) {
            GpuDeviceInfo g = i.gpuInfo().gpus().getFirst();
            b.gpuCount(g.count()).gpuName(kebab(g.name())).gpuManufacturer(kebab(g.manufacturer()))
                    .gpuMemoryMiB(g.memoryInfo() == null || g.memoryInfo().sizeInMiB() == null ? null
                            : g.memoryInfo().sizeInMiB().longValue());
        }
        if (i.neuronInfo() != null && !i.neuronInfo().neuronDevices().isEmpty()) {
            NeuronDeviceInfo n = i.neuronInfo().neuronDevices().getFirst();
            b.acceleratorCount(n.count()).acceleratorName(kebab(n.name())).acceleratorManufacturer("aws");
            if (n.count() != null && n.coreInfo() != null && n.coreInfo().count() != null) {
                b.neuronCoreCount(n.count() * n.coreInfo().count());
            }
        }
        if (i.ebsInfo() != null && i.ebsInfo().ebsOptimizedInfo() != null) {
            b.ebsBandwidthMbps(i.ebsInfo().ebsOptimizedInfo().baselineBandwidthInMbps());
        }
        if (i.instanceStorageInfo() != null && "required".equals(i.instanceStorageInfo().nvmeSupportAsString())) {
            b.localNvmeGB(i.instanceStorageInfo().totalSizeInGB());
        }
        b.hypervisor(i.hypervisorAsString()).bareMetal(Boolean.TRUE.equals(i.bareMetal()))
                .burstable(Boolean.TRUE.equals(i.burstablePerformanceSupported()))
                .nestedVirtualization(i.processorInfo() != null && i.processorInfo().supportedFeatures()
                        .contains(SupportedAdditionalProcessorFeature.NESTED_VIRTUALIZATION));
        TreeSet<String> capacityTypes = new TreeSet<>();
        for (String c : i.supportedUsageClassesAsStrings()) {
            if (c.equals("on-demand") || c.equals("spot")) {
                capacityTypes.add(c);
            }
        }
        return new Described(b.build(), capacityTypes);
    }

    private static void network(InstanceTypeSpec.Builder b, NetworkInfo n) {
        if (n == null) {
            return;
        }
        b.encryptionInTransitSupported(n.encryptionInTransitSupported());
        if (n.efaInfo() != null) {
            b.efaMaxInterfaces(n.efaInfo().maximumEfaInterfaces());
        }
        Integer enis = n.maximumNetworkInterfaces();
        NetworkCardInfo card = null;
        int index = n.defaultNetworkCardIndex() == null ? 0 : n.defaultNetworkCardIndex();
        for (NetworkCardInfo c : n.networkCards()) {
            if (c.networkCardIndex() != null && c.networkCardIndex() == index) {
                card = c;
            }
        }
        if (card != null) {
            enis = card.maximumNetworkInterfaces();
            if (card.baselineBandwidthInGbps() != null) {
                b.networkBandwidthMbps((int) Math.round(card.baselineBandwidthInGbps() * 1000));
            }
        }
        Integer ips = n.ipv4AddressesPerInterface();
        if (enis != null && ips != null) {
            b.eniCount(enis).ipv4PerEni(ips).maxPods(enis * (ips - 1) + 2);
        }
    }

    /** Karpenter's label form of EC2's names: lower case, spaces as dashes ("Radeon Pro V520" → radeon-pro-v520). */
    private static String kebab(String s) {
        return s == null ? null : s.trim().toLowerCase(Locale.ROOT).replace(' ', '-');
    }
}
