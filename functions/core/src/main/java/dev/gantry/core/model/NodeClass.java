package dev.gantry.core.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How nodes are launched: Karpenter's {@code EC2NodeClass} ({@code karpenter.k8s.aws/v1}), with EKS Auto Mode's
 * {@code NodeClass} ({@code eks.amazonaws.com/v1}) and v1beta1/AWSNodeTemplate converted into the same shape.
 *
 * @param group        the API group it was written in, so a NodePool's {@code nodeClassRef} can be matched
 * @param kind         {@code EC2NodeClass} or {@code NodeClass}
 * @param amiFamily    AL2023, AL2, Bottlerocket, Windows2019/2022/2025, Custom; null to infer from an alias
 * @param role         the node IAM role name (exclusive with {@code instanceProfile})
 * @param kubelet      kubelet settings that change allocatable and user data
 * @param convertedFrom the apiVersion/kind this was converted from, or null
 * @param capacityReservationSelectorTerms the reservations launches may use (capacity type {@code reserved}); empty: none
 * @param annotations  the object's own annotations (Gantry's {@code gantry.dev/drift-*} rollout settings are read from them)
 * @param instanceStorePolicy {@value #RAID0}: the instance's NVMe instance-store disks are striped into one array that
 *                     backs the node's ephemeral storage (and its size is the node's ephemeral-storage); null: they are
 *                     left alone and the root volume backs it
 * @param context      Karpenter's {@code context}: the reserved {@code Context} CreateFleet is called with; null: none
 * @param networking   how the primary network interface is configured ({@code ipPrefixCount},
 *                     {@code connectionTracking}); {@link Networking#NONE}: as EC2 defaults it
 * @param cpuOptions   Karpenter's {@code cpuOptions} ({@code nestedVirtualization}); {@link CpuOptions#NONE}: EC2's
 * @param placementGroup Karpenter's {@code placementGroupSelector}: the EC2 placement group, by name or id, the nodes
 *                     launch into; null: none
 */
public record NodeClass(String name, String group, String kind, String amiFamily, List<AmiSelectorTerm> amiSelectorTerms,
                        List<SelectorTerm> subnetSelectorTerms, List<SelectorTerm> securityGroupSelectorTerms,
                        String role, String instanceProfile, String userData, Map<String, String> tags,
                        List<BlockDeviceMapping> blockDeviceMappings, MetadataOptions metadataOptions, Kubelet kubelet,
                        Boolean associatePublicIPAddress, Boolean detailedMonitoring, String convertedFrom,
                        List<CapacityReservationSelectorTerm> capacityReservationSelectorTerms,
                        Map<String, String> annotations, String instanceStorePolicy, String context,
                        Networking networking, CpuOptions cpuOptions, PlacementGroupSelector placementGroup) {
    /** Karpenter's one {@code instanceStorePolicy}. */
    public static final String RAID0 = "RAID0";

    /** A NodeClass that leaves instance-store disks alone. */
    public NodeClass(String name, String group, String kind, String amiFamily, List<AmiSelectorTerm> amiSelectorTerms,
                     List<SelectorTerm> subnetSelectorTerms, List<SelectorTerm> securityGroupSelectorTerms,
                     String role, String instanceProfile, String userData, Map<String, String> tags,
                     List<BlockDeviceMapping> blockDeviceMappings, MetadataOptions metadataOptions, Kubelet kubelet,
                     Boolean associatePublicIPAddress, Boolean detailedMonitoring, String convertedFrom,
                     List<CapacityReservationSelectorTerm> capacityReservationSelectorTerms,
                     Map<String, String> annotations) {
        this(name, group, kind, amiFamily, amiSelectorTerms, subnetSelectorTerms, securityGroupSelectorTerms, role,
                instanceProfile, userData, tags, blockDeviceMappings, metadataOptions, kubelet, associatePublicIPAddress,
                detailedMonitoring, convertedFrom, capacityReservationSelectorTerms, annotations, null, null, null, null, null);
    }

    /** A NodeClass that selects no capacity reservation and has no annotations. */
    public NodeClass(String name, String group, String kind, String amiFamily, List<AmiSelectorTerm> amiSelectorTerms,
                     List<SelectorTerm> subnetSelectorTerms, List<SelectorTerm> securityGroupSelectorTerms,
                     String role, String instanceProfile, String userData, Map<String, String> tags,
                     List<BlockDeviceMapping> blockDeviceMappings, MetadataOptions metadataOptions, Kubelet kubelet,
                     Boolean associatePublicIPAddress, Boolean detailedMonitoring, String convertedFrom) {
        this(name, group, kind, amiFamily, amiSelectorTerms, subnetSelectorTerms, securityGroupSelectorTerms, role,
                instanceProfile, userData, tags, blockDeviceMappings, metadataOptions, kubelet, associatePublicIPAddress,
                detailedMonitoring, convertedFrom, List.of(), Map.of());
    }

    /** A NodeClass without annotations. */
    public NodeClass(String name, String group, String kind, String amiFamily, List<AmiSelectorTerm> amiSelectorTerms,
                     List<SelectorTerm> subnetSelectorTerms, List<SelectorTerm> securityGroupSelectorTerms,
                     String role, String instanceProfile, String userData, Map<String, String> tags,
                     List<BlockDeviceMapping> blockDeviceMappings, MetadataOptions metadataOptions, Kubelet kubelet,
                     Boolean associatePublicIPAddress, Boolean detailedMonitoring, String convertedFrom,
                     List<CapacityReservationSelectorTerm> capacityReservationSelectorTerms) {
        this(name, group, kind, amiFamily, amiSelectorTerms, subnetSelectorTerms, securityGroupSelectorTerms, role,
                instanceProfile, userData, tags, blockDeviceMappings, metadataOptions, kubelet, associatePublicIPAddress,
                detailedMonitoring, convertedFrom, capacityReservationSelectorTerms, Map.of());
    }

    /** A NodeClass that selects no capacity reservation. */
    public NodeClass(String name, String group, String kind, String amiFamily, List<AmiSelectorTerm> amiSelectorTerms,
                     List<SelectorTerm> subnetSelectorTerms, List<SelectorTerm> securityGroupSelectorTerms,
                     String role, String instanceProfile, String userData, Map<String, String> tags,
                     List<BlockDeviceMapping> blockDeviceMappings, MetadataOptions metadataOptions, Kubelet kubelet,
                     Boolean associatePublicIPAddress, Boolean detailedMonitoring, String convertedFrom,
                     Map<String, String> annotations) {
        this(name, group, kind, amiFamily, amiSelectorTerms, subnetSelectorTerms, securityGroupSelectorTerms, role,
                instanceProfile, userData, tags, blockDeviceMappings, metadataOptions, kubelet, associatePublicIPAddress,
                detailedMonitoring, convertedFrom, List.of(), annotations);
    }

    public NodeClass {
        capacityReservationSelectorTerms = List.copyOf(capacityReservationSelectorTerms == null ? List.of()
                : capacityReservationSelectorTerms);
        annotations = Map.copyOf(annotations == null ? Map.of() : annotations);
        Objects.requireNonNull(name, "name");
        // As a nodeClassRef defaults them (NodePool.NodeClassRef), so a class built without them is Karpenter's kind.
        group = group == null || group.isEmpty() ? "karpenter.k8s.aws" : group;
        kind = kind == null || kind.isEmpty() ? "EC2NodeClass" : kind;
        amiSelectorTerms = List.copyOf(amiSelectorTerms == null ? List.of() : amiSelectorTerms);
        subnetSelectorTerms = List.copyOf(subnetSelectorTerms == null ? List.of() : subnetSelectorTerms);
        securityGroupSelectorTerms = List.copyOf(securityGroupSelectorTerms == null ? List.of() : securityGroupSelectorTerms);
        tags = Map.copyOf(tags == null ? Map.of() : tags);
        blockDeviceMappings = List.copyOf(blockDeviceMappings == null ? List.of() : blockDeviceMappings);
        metadataOptions = metadataOptions == null ? MetadataOptions.DEFAULT : metadataOptions;
        kubelet = kubelet == null ? Kubelet.DEFAULT : kubelet;
        networking = networking == null ? Networking.NONE : networking;
        cpuOptions = cpuOptions == null ? CpuOptions.NONE : cpuOptions;
    }

    /*
     * Copies with one thing changed. Every copy of a NodeClass goes through these, so a field added to the record is
     * carried by all of them: a hand-written copy that used a shorter constructor once dropped the reservation terms.
     */

    /** This class under another name. */
    public NodeClass withName(String newName) {
        return new NodeClass(newName, group, kind, amiFamily, amiSelectorTerms, subnetSelectorTerms,
                securityGroupSelectorTerms, role, instanceProfile, userData, tags, blockDeviceMappings, metadataOptions,
                kubelet, associatePublicIPAddress, detailedMonitoring, convertedFrom, capacityReservationSelectorTerms,
                annotations, instanceStorePolicy, context, networking, cpuOptions, placementGroup);
    }

    /** This class with other kubelet settings. */
    public NodeClass withKubelet(Kubelet newKubelet) {
        return new NodeClass(name, group, kind, amiFamily, amiSelectorTerms, subnetSelectorTerms,
                securityGroupSelectorTerms, role, instanceProfile, userData, tags, blockDeviceMappings, metadataOptions,
                newKubelet, associatePublicIPAddress, detailedMonitoring, convertedFrom, capacityReservationSelectorTerms,
                annotations, instanceStorePolicy, context, networking, cpuOptions, placementGroup);
    }

    /** This class with another {@code instanceStorePolicy} ({@value #RAID0} or null). */
    public NodeClass withInstanceStorePolicy(String policy) {
        return new NodeClass(name, group, kind, amiFamily, amiSelectorTerms, subnetSelectorTerms,
                securityGroupSelectorTerms, role, instanceProfile, userData, tags, blockDeviceMappings, metadataOptions,
                kubelet, associatePublicIPAddress, detailedMonitoring, convertedFrom, capacityReservationSelectorTerms,
                annotations, policy, context, networking, cpuOptions, placementGroup);
    }

    /** This class calling CreateFleet with another {@code context} (null: none). */
    public NodeClass withContext(String newContext) {
        return new NodeClass(name, group, kind, amiFamily, amiSelectorTerms, subnetSelectorTerms,
                securityGroupSelectorTerms, role, instanceProfile, userData, tags, blockDeviceMappings, metadataOptions,
                kubelet, associatePublicIPAddress, detailedMonitoring, convertedFrom, capacityReservationSelectorTerms,
                annotations, instanceStorePolicy, newContext, networking, cpuOptions, placementGroup);
    }

    /** This class with other primary-interface settings. */
    public NodeClass withNetworking(Networking newNetworking) {
        return new NodeClass(name, group, kind, amiFamily, amiSelectorTerms, subnetSelectorTerms,
                securityGroupSelectorTerms, role, instanceProfile, userData, tags, blockDeviceMappings, metadataOptions,
                kubelet, associatePublicIPAddress, detailedMonitoring, convertedFrom, capacityReservationSelectorTerms,
                annotations, instanceStorePolicy, context, newNetworking, cpuOptions, placementGroup);
    }

    /** This class with other CPU options. */
    public NodeClass withCpuOptions(CpuOptions newCpuOptions) {
        return new NodeClass(name, group, kind, amiFamily, amiSelectorTerms, subnetSelectorTerms,
                securityGroupSelectorTerms, role, instanceProfile, userData, tags, blockDeviceMappings, metadataOptions,
                kubelet, associatePublicIPAddress, detailedMonitoring, convertedFrom, capacityReservationSelectorTerms,
                annotations, instanceStorePolicy, context, networking, newCpuOptions, placementGroup);
    }

    /** This class launching into another placement group (null: none). */
    public NodeClass withPlacementGroup(PlacementGroupSelector newPlacementGroup) {
        return new NodeClass(name, group, kind, amiFamily, amiSelectorTerms, subnetSelectorTerms,
                securityGroupSelectorTerms, role, instanceProfile, userData, tags, blockDeviceMappings, metadataOptions,
                kubelet, associatePublicIPAddress, detailedMonitoring, convertedFrom, capacityReservationSelectorTerms,
                annotations, instanceStorePolicy, context, networking, cpuOptions, newPlacementGroup);
    }

    /** This class selecting its images with {@code terms} under {@code family} (a paused rollout's pinned images). */
    public NodeClass withAmi(String family, List<AmiSelectorTerm> terms) {
        return new NodeClass(name, group, kind, family, terms, subnetSelectorTerms,
                securityGroupSelectorTerms, role, instanceProfile, userData, tags, blockDeviceMappings, metadataOptions,
                kubelet, associatePublicIPAddress, detailedMonitoring, convertedFrom, capacityReservationSelectorTerms,
                annotations, instanceStorePolicy, context, networking, cpuOptions, placementGroup);
    }

    /**
     * One {@code amiSelectorTerms} entry. Exactly one of alias, id, name+owner, tags or ssmParameter is the selector;
     * {@code alias} is {@code family@version} such as {@code al2023@latest} or {@code bottlerocket@v1.20.3}.
     *
     * @param serves never in a user's term (no Karpenter field): on the id terms Gantry writes when it pins a paused
     *               rollout's images, the image key (see {@code ImageKeys}) the image keeps serving,
     *               such as {@code amd64/nvidia}, so a pinned alias class still launches GPU types on its GPU image;
     *               null: the image serves every type of its architecture
     */
    public record AmiSelectorTerm(String alias, String id, String name, String owner, Map<String, String> tags,
                                  String ssmParameter, String serves) {
        public AmiSelectorTerm {
            tags = Map.copyOf(tags == null ? Map.of() : tags);
        }

        /** A term as a user writes it. */
        public AmiSelectorTerm(String alias, String id, String name, String owner, Map<String, String> tags, String ssmParameter) {
            this(alias, id, name, owner, tags, ssmParameter, null);
        }

        public static AmiSelectorTerm alias(String alias) {
            return new AmiSelectorTerm(alias, null, null, null, Map.of(), null);
        }

        /** Gantry's pin of image {@code id} for the types image key {@code serves} names (see {@code serves}). */
        public static AmiSelectorTerm pinned(String id, String serves) {
            return new AmiSelectorTerm(null, id, null, null, Map.of(), null, serves);
        }
    }

    /** A subnet or security group selector term: by id, by name, or by tags (a value of {@code *} matches any). */
    public record SelectorTerm(String id, String name, Map<String, String> tags) {
        public SelectorTerm {
            tags = Map.copyOf(tags == null ? Map.of() : tags);
        }

        public static SelectorTerm id(String id) {
            return new SelectorTerm(id, null, Map.of());
        }
    }

    /**
     * One {@code capacityReservationSelectorTerms} entry (Karpenter v1.14 EC2NodeClass): by {@code id} alone, or by any
     * of {@code tags} ({@code *} matches any value), the owning account {@code ownerId} and {@code instanceMatchCriteria}
     * ({@code open} or {@code targeted}), all of which must hold. Terms are ORed. A NodeClass without terms uses no
     * reservation, not even an open one (Karpenter never matches open reservations implicitly).
     */
    public record CapacityReservationSelectorTerm(String id, String ownerId, Map<String, String> tags,
                                                  String instanceMatchCriteria) {
        public CapacityReservationSelectorTerm {
            tags = Map.copyOf(tags == null ? Map.of() : tags);
        }

        public static CapacityReservationSelectorTerm id(String id) {
            return new CapacityReservationSelectorTerm(id, null, Map.of(), null);
        }
    }

    /**
     * The primary network interface's settings Karpenter v1.14 writes into the launch template.
     *
     * @param ipPrefixCount      {@code ipPrefixCount}: how many /28 IPv4 prefixes EC2 assigns to the interface at
     *                           launch (each takes one of the interface's address slots); null: none
     * @param connectionTracking {@code connectionTracking}: the idle timeouts of the interface's tracked connections;
     *                           null: EC2's defaults. Only Nitro instances accept it.
     */
    public record Networking(Integer ipPrefixCount, ConnectionTracking connectionTracking) {
        public static final Networking NONE = new Networking(null, null);
    }

    /** Karpenter's {@code placementGroupSelector}: exactly one of the group's name or its {@code pg-…} id. */
    public record PlacementGroupSelector(String name, String id) {
        public PlacementGroupSelector {
            if ((name == null) == (id == null)) {
                throw new IllegalArgumentException("a placement group is selected by exactly one of name and id");
            }
        }

        /** The selector as written: {@code name=…} or {@code id=…}. */
        @Override
        public String toString() {
            return name != null ? "name=" + name : "id=" + id;
        }
    }

    /**
     * The instance's CPU options Karpenter v1.14 writes into the launch template.
     *
     * @param nestedVirtualization {@code enabled}: the instance may run its own hypervisor (only types whose processor
     *                             supports it are offered); {@code disabled} or null: EC2's default, off
     */
    public record CpuOptions(String nestedVirtualization) {
        public static final CpuOptions NONE = new CpuOptions(null);

        /** Whether nested virtualization is asked for. */
        public boolean nested() {
            return "enabled".equals(nestedVirtualization);
        }
    }

    /**
     * Idle connection-tracking timeouts in seconds (EC2's ranges: TCP established 60–432,000, UDP stream 60–180, UDP
     * 30–60); a null one keeps EC2's default.
     */
    public record ConnectionTracking(Integer tcpEstablishedTimeout, Integer udpStreamTimeout, Integer udpTimeout) {
    }

    /** An EBS block device mapping; {@code rootVolume} marks the one whose size backs ephemeral storage. */
    public record BlockDeviceMapping(String deviceName, boolean rootVolume, Ebs ebs) {
    }

    public record Ebs(Quantity volumeSize, String volumeType, Integer iops, Integer throughput, Boolean encrypted,
                      String kmsKeyId, Boolean deleteOnTermination, String snapshotId) {
    }

    /** Instance metadata options; Karpenter's defaults are IMDSv2 required with a hop limit of 1. */
    public record MetadataOptions(String httpEndpoint, String httpProtocolIPv6, Integer httpPutResponseHopLimit, String httpTokens) {
        public static final MetadataOptions DEFAULT = new MetadataOptions("enabled", "disabled", 1, "required");

        public MetadataOptions {
            httpEndpoint = httpEndpoint == null ? "enabled" : httpEndpoint;
            httpProtocolIPv6 = httpProtocolIPv6 == null ? "disabled" : httpProtocolIPv6;
            httpPutResponseHopLimit = httpPutResponseHopLimit == null ? 1 : httpPutResponseHopLimit;
            httpTokens = httpTokens == null ? "required" : httpTokens;
        }
    }

    /**
     * Kubelet settings of an EC2NodeClass. Null fields take the kubelet's (and Karpenter's) defaults.
     * Eviction maps are signal → threshold, as written ({@code memory.available: 5%} or {@code 100Mi}).
     */
    public record Kubelet(Integer maxPods, Integer podsPerCore, Map<String, Quantity> kubeReserved,
                          Map<String, Quantity> systemReserved, Map<String, String> evictionHard,
                          Map<String, String> evictionSoft, Map<String, String> evictionSoftGracePeriod,
                          List<String> clusterDNS, Integer imageGCHighThresholdPercent, Integer imageGCLowThresholdPercent,
                          Boolean cpuCFSQuota) {
        public static final Kubelet DEFAULT = new Kubelet(null, null, Map.of(), Map.of(), Map.of(), Map.of(), Map.of(),
                List.of(), null, null, null);

        public Kubelet {
            kubeReserved = Map.copyOf(kubeReserved == null ? Map.of() : kubeReserved);
            systemReserved = Map.copyOf(systemReserved == null ? Map.of() : systemReserved);
            evictionHard = Map.copyOf(evictionHard == null ? Map.of() : evictionHard);
            evictionSoft = Map.copyOf(evictionSoft == null ? Map.of() : evictionSoft);
            evictionSoftGracePeriod = Map.copyOf(evictionSoftGracePeriod == null ? Map.of() : evictionSoftGracePeriod);
            clusterDNS = List.copyOf(clusterDNS == null ? List.of() : clusterDNS);
        }
    }

    /**
     * Whether {@code ref} names this class: its group, kind and name, as the API server resolves a NodePool's
     * {@code nodeClassRef}. An EKS Auto Mode {@code NodeClass} and an {@code EC2NodeClass} may share a name (both are
     * often {@code default}); neither answers for the other.
     */
    public boolean isNamedBy(NodePool.NodeClassRef ref) {
        return ref.name().equals(name) && ref.kind().equals(kind) && ref.group().equals(group);
    }

    /**
     * This class's key among the classes of every kind: its name for an {@code EC2NodeClass} (the key Gantry's stored
     * rollout markers have always used), {@code <kind>.<group>/<name>} for another kind.
     */
    public String key() {
        return "EC2NodeClass".equals(kind) ? name : kind + "." + group + "/" + name;
    }

    /** The AMI family in effect: the explicit one, else the family an alias names, else AL2023 (Karpenter's default). */
    public String effectiveAmiFamily() {
        if (amiFamily != null) {
            return amiFamily;
        }
        for (AmiSelectorTerm t : amiSelectorTerms) {
            if (t.alias() != null) {
                String fam = t.alias().split("@", 2)[0].toLowerCase(java.util.Locale.ROOT);
                return switch (fam) {
                    case "al2023" -> "AL2023";
                    case "al2" -> "AL2";
                    case "bottlerocket" -> "Bottlerocket";
                    case "windows2019" -> "Windows2019";
                    case "windows2022" -> "Windows2022";
                    case "windows2025" -> "Windows2025";
                    default -> fam;
                };
            }
        }
        return "AL2023";
    }
}
