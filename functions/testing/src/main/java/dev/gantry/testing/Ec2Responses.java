package dev.gantry.testing;

import dev.gantry.testing.Ec2Resources.Image;
import dev.gantry.testing.Ec2Resources.Instance;
import dev.gantry.testing.Ec2Resources.LaunchTemplate;
import dev.gantry.testing.Ec2Resources.SecurityGroup;
import dev.gantry.testing.Ec2Resources.Subnet;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * EC2 query-protocol responses in the wire format EC2 sends (API version 2016-11-15): an {@code <XResponse>} root in
 * the EC2 namespace with a {@code requestId}, lists as {@code <xSet><item>}, and errors as
 * {@code <Response><Errors><Error>} with HTTP 400. The element names follow the EC2 API model's locationNames, and
 * {@code AwsStubEc2Test} proves each shape by parsing it with the real SDK v2 {@code Ec2Client}.
 */
public final class Ec2Responses {
    public static final String NAMESPACE = "http://ec2.amazonaws.com/doc/2016-11-15/";

    private Ec2Responses() {}

    /** The override a fleet instance or error refers to, echoed back as EC2 does. */
    public record FleetOverride(String launchTemplateId, String launchTemplateName, String version,
                                String instanceType, String subnetId, String zone) {}

    /** The instances one override launched: EC2 groups a fleet's instances by override, each with all its ids. */
    public record FleetInstance(FleetOverride override, String lifecycle, List<String> instanceIds) {
        public FleetInstance {
            instanceIds = List.copyOf(instanceIds);
        }
    }

    public record FleetError(FleetOverride override, String lifecycle, String errorCode, String errorMessage) {}

    public record Fleet(String fleetId, List<FleetInstance> instances, List<FleetError> errors) {}

    /** An EC2 error: {@code <Response><Errors><Error><Code>} with HTTP 400, as the SDK maps to Ec2Exception. */
    public static StubResponse error(String code, String message) {
        String body = new Xml().raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n").open("Response").open("Errors")
                .open("Error").leaf("Code", code).leaf("Message", message).close("Error").close("Errors")
                .leaf("RequestID", UUID.randomUUID()).close("Response").toString();
        return new StubResponse(400, "text/xml;charset=UTF-8", body);
    }

    /** A successful response to {@code action} whose children after the requestId are written by {@code body}. */
    public static StubResponse ok(String action, Consumer<Xml> body) {
        Xml xml = new Xml().raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .raw("<" + action + "Response xmlns=\"" + NAMESPACE + "\">")
                .leaf("requestId", UUID.randomUUID());
        body.accept(xml);
        return StubResponse.xml(xml.close(action + "Response").toString());
    }

    static StubResponse createFleet(Fleet fleet) {
        return ok("CreateFleet", x -> {
            x.leaf("fleetId", fleet.fleetId()).open("errorSet");
            for (FleetError e : fleet.errors()) {
                x.open("item");
                overrides(x, e.override());
                x.leaf("lifecycle", e.lifecycle()).leaf("errorCode", e.errorCode())
                        .leaf("errorMessage", e.errorMessage()).close("item");
            }
            x.close("errorSet").open("fleetInstanceSet");
            for (FleetInstance i : fleet.instances()) {
                x.open("item");
                overrides(x, i.override());
                x.leaf("lifecycle", i.lifecycle()).items("instanceIds", i.instanceIds())
                        .leaf("instanceType", i.override().instanceType()).close("item");
            }
            x.close("fleetInstanceSet");
        });
    }

    private static void overrides(Xml x, FleetOverride o) {
        x.open("launchTemplateAndOverrides").open("launchTemplateSpecification")
                .leaf("launchTemplateId", o.launchTemplateId()).leaf("launchTemplateName", o.launchTemplateName())
                .leaf("version", o.version()).close("launchTemplateSpecification")
                .open("overrides").leaf("instanceType", o.instanceType()).leaf("subnetId", o.subnetId())
                .leaf("availabilityZone", o.zone()).close("overrides").close("launchTemplateAndOverrides");
    }

    static StubResponse describeInstances(List<Instance> instances) {
        return describeInstances(instances, id -> null);
    }

    /** @param reservationOf the capacity reservation an instance runs in (null: none), as EC2 lists it */
    static StubResponse describeInstances(List<Instance> instances, java.util.function.Function<String, String> reservationOf) {
        return ok("DescribeInstances", x -> {
            x.open("reservationSet");
            for (Instance i : instances) {
                x.open("item").leaf("reservationId", "r-" + i.id().substring(2)).leaf("ownerId", Ec2State.ACCOUNT)
                        .raw("<groupSet/>").open("instancesSet").open("item")
                        .leaf("instanceId", i.id()).leaf("imageId", i.imageId());
                state(x, "instanceState", i.state());
                x.leaf("privateDnsName", "ip-" + i.privateIp().replace('.', '-') + ".ec2.internal")
                        .leaf("amiLaunchIndex", 0).leaf("instanceType", i.type()).leaf("launchTime", i.launchTime())
                        .open("placement").leaf("availabilityZone", i.zone()).leaf("tenancy", "default")
                        .close("placement").leaf("subnetId", i.subnetId()).leaf("privateIpAddress", i.privateIp())
                        .leaf("architecture", "x86_64").leaf("rootDeviceType", "ebs")
                        .leaf("instanceLifecycle", i.lifecycle().equals("spot") ? "spot" : null);
                String cr = reservationOf.apply(i.id());
                if (cr != null) {
                    x.leaf("capacityReservationId", cr).open("capacityReservationSpecification")
                            .leaf("capacityReservationPreference", "capacity-reservations-only")
                            .open("capacityReservationTarget").leaf("capacityReservationId", cr)
                            .close("capacityReservationTarget").close("capacityReservationSpecification");
                }
                x.tagSet(i.tags()).close("item").close("instancesSet").close("item");
            }
            x.close("reservationSet");
        });
    }

    static StubResponse terminateInstances(List<Instance> before) {
        return ok("TerminateInstances", x -> {
            x.open("instancesSet");
            for (Instance i : before) {
                x.open("item").leaf("instanceId", i.id());
                state(x, "currentState", i.state().equals("terminated") ? "terminated" : "shutting-down");
                state(x, "previousState", i.state());
                x.close("item");
            }
            x.close("instancesSet");
        });
    }

    private static void state(Xml x, String element, String name) {
        int code = switch (name) {
            case "pending" -> 0;
            case "running" -> 16;
            case "shutting-down" -> 32;
            case "terminated" -> 48;
            case "stopping" -> 64;
            case "stopped" -> 80;
            default -> throw new IllegalArgumentException("not an EC2 instance state: " + name);
        };
        x.open(element).leaf("code", code).leaf("name", name).close(element);
    }

    static void launchTemplate(Xml x, String element, LaunchTemplate t) {
        x.open(element).leaf("launchTemplateId", t.id()).leaf("launchTemplateName", t.name())
                .leaf("createTime", t.createTime()).leaf("createdBy", "arn:aws:iam::" + Ec2State.ACCOUNT + ":role/gantry")
                .leaf("defaultVersionNumber", t.version()).leaf("latestVersionNumber", t.version())
                .tagSet(t.tags()).close(element);
    }

    static StubResponse subnets(List<Subnet> subnets) {
        return ok("DescribeSubnets", x -> {
            x.open("subnetSet");
            for (Subnet s : subnets) {
                x.open("item").leaf("subnetId", s.id()).leaf("subnetArn", "arn:aws:ec2:us-east-1:"
                                + Ec2State.ACCOUNT + ":subnet/" + s.id()).leaf("state", "available")
                        .leaf("ownerId", Ec2State.ACCOUNT).leaf("vpcId", s.vpcId()).leaf("cidrBlock", s.cidr())
                        .leaf("availableIpAddressCount", s.availableIps()).leaf("availabilityZone", s.zone())
                        .leaf("availabilityZoneId", s.zoneId()).leaf("defaultForAz", false)
                        .leaf("mapPublicIpOnLaunch", false).tagSet(s.tags()).close("item");
            }
            x.close("subnetSet");
        });
    }

    static StubResponse securityGroups(List<SecurityGroup> groups) {
        return ok("DescribeSecurityGroups", x -> {
            x.open("securityGroupInfo");
            for (SecurityGroup g : groups) {
                x.open("item").leaf("ownerId", Ec2State.ACCOUNT).leaf("groupId", g.id()).leaf("groupName", g.name())
                        .leaf("groupDescription", "EKS cluster security group").leaf("vpcId", g.vpcId())
                        .raw("<ipPermissions/><ipPermissionsEgress/>").tagSet(g.tags()).close("item");
            }
            x.close("securityGroupInfo");
        });
    }

    static StubResponse images(List<Image> images) {
        return ok("DescribeImages", x -> {
            x.open("imagesSet");
            for (Image i : images) {
                x.open("item").leaf("imageId", i.id()).leaf("imageLocation", "amazon/" + i.name())
                        .leaf("imageState", "available").leaf("imageOwnerId", i.ownerId())
                        .leaf("creationDate", i.creationDate()).leaf("isPublic", true)
                        .leaf("architecture", i.architecture()).leaf("imageType", "machine").leaf("name", i.name())
                        .leaf("rootDeviceType", "ebs").leaf("rootDeviceName", "/dev/xvda")
                        .leaf("virtualizationType", "hvm").leaf("hypervisor", "xen");
                if (i.deprecationTime() != null) {
                    x.leaf("deprecationTime", i.deprecationTime());
                }
                x.tagSet(i.tags()).close("item");
            }
            x.close("imagesSet");
        });
    }

    static StubResponse instanceTypeOfferings(List<Map.Entry<String, String>> typeAndZone) {
        return ok("DescribeInstanceTypeOfferings", x -> {
            x.open("instanceTypeOfferingSet");
            typeAndZone.forEach(e -> x.open("item").leaf("instanceType", e.getKey())
                    .leaf("locationType", "availability-zone").leaf("location", e.getValue()).close("item"));
            x.close("instanceTypeOfferingSet");
        });
    }

    /** Spot prices as (type, zone, price) rows, all stamped {@code at}. */
    static StubResponse spotPriceHistory(List<String[]> rows, Instant at) {
        return ok("DescribeSpotPriceHistory", x -> {
            x.open("spotPriceHistorySet");
            rows.forEach(r -> x.open("item").leaf("instanceType", r[0]).leaf("productDescription", "Linux/UNIX")
                    .leaf("spotPrice", r[2]).leaf("timestamp", at).leaf("availabilityZone", r[1]).close("item"));
            x.close("spotPriceHistorySet");
        });
    }
}
