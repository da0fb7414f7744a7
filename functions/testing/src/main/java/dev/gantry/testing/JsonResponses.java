package dev.gantry.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;
import java.util.TreeMap;

/**
 * Canned answers for the non-EC2 services Gantry calls, in each one's wire format: SSM and Pricing (AWS JSON 1.1,
 * errors as {@code {"__type": ...}} with HTTP 400), EKS (REST-JSON, errors with HTTP 404) and STS (query XML).
 * {@code AwsStubJsonServicesTest} proves each with the real SDK client.
 */
public final class JsonResponses {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonResponses() {}

    /** The cluster DescribeCluster returns; {@code caData} is base64 PEM, as EKS sends it. */
    public record EksCluster(String name, String version, String endpoint, String caData, String serviceCidr,
                             String clusterSecurityGroupId) {
        public static EksCluster defaults() {
            return new EksCluster(Ec2State.CLUSTER, "1.33",
                    "https://0123456789ABCDEF0123456789ABCDEF.gr7.us-east-1.eks.amazonaws.com",
                    java.util.Base64.getEncoder().encodeToString(
                            "-----BEGIN CERTIFICATE-----\nTUlJQ-test-ca\n-----END CERTIFICATE-----\n".getBytes()),
                    "172.20.0.0/16", "sg-0123456789abcdef0");
        }
    }

    /** An AWS JSON protocol error: HTTP 400 with {@code __type}, which the SDK maps to the modelled exception. */
    public static StubResponse awsJsonError(String type, String message) {
        ObjectNode error = JSON.createObjectNode().put("__type", type).put("message", message);
        return new StubResponse(400, "application/x-amz-json-1.1", error.toString());
    }

    /** EKS DescribeCluster ({@code GET /clusters/<name>}) for {@code cluster}; other names get 404. */
    public static Responder eksCluster(EksCluster cluster) {
        return request -> {
            String name = request.path().substring(request.path().lastIndexOf('/') + 1);
            if (!name.equals(cluster.name())) {
                // EKS names the error in the x-amzn-ErrorType header; the SDK reads __type in the body the same way.
                ObjectNode error = JSON.createObjectNode().put("__type", "ResourceNotFoundException")
                        .put("message", "No cluster found for name: " + name + ".").put("clusterName", name);
                return new StubResponse(404, "application/json", error.toString());
            }
            ObjectNode c = JSON.createObjectNode().put("name", cluster.name())
                    .put("arn", "arn:aws:eks:us-east-1:" + Ec2State.ACCOUNT + ":cluster/" + cluster.name())
                    .put("createdAt", 1735689600.0).put("version", cluster.version())
                    .put("endpoint", cluster.endpoint())
                    .put("roleArn", "arn:aws:iam::" + Ec2State.ACCOUNT + ":role/eks-cluster")
                    .put("status", "ACTIVE").put("platformVersion", "eks.1");
            ObjectNode vpc = c.putObject("resourcesVpcConfig").put("clusterSecurityGroupId",
                    cluster.clusterSecurityGroupId()).put("vpcId", "vpc-0123456789abcdef0")
                    .put("endpointPublicAccess", true).put("endpointPrivateAccess", true);
            vpc.putArray("subnetIds").add("subnet-0000000000000000a").add("subnet-0000000000000000b");
            vpc.putArray("securityGroupIds");
            // An IPv6 cluster has serviceIpv6Cidr and no IPv4 one.
            boolean ipv6 = cluster.serviceCidr().contains(":");
            c.putObject("kubernetesNetworkConfig").put(ipv6 ? "serviceIpv6Cidr" : "serviceIpv4Cidr", cluster.serviceCidr())
                    .put("ipFamily", ipv6 ? "ipv6" : "ipv4");
            c.putObject("certificateAuthority").put("data", cluster.caData());
            c.putObject("accessConfig").put("authenticationMode", "API_AND_CONFIG_MAP");
            c.putObject("tags");
            return StubResponse.json(JSON.createObjectNode().set("cluster", c).toString());
        };
    }

    /**
     * The EKS-optimized AL2023 AMI parameters for Kubernetes 1.33, pointing at the default images: standard and NVIDIA
     * for both architectures, Neuron for x86_64, as AWS publishes them.
     */
    public static Map<String, String> defaultSsmParameters() {
        String prefix = "/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/";
        return Map.of(prefix + "x86_64/standard/recommended/image_id", "ami-0a1b2c3d4e5f60001",
                prefix + "arm64/standard/recommended/image_id", "ami-0a1b2c3d4e5f60002",
                prefix + "x86_64/nvidia/recommended/image_id", Ec2State.NVIDIA_AMD64,
                prefix + "x86_64/neuron/recommended/image_id", Ec2State.NEURON_AMD64,
                prefix + "arm64/nvidia/recommended/image_id", Ec2State.NVIDIA_ARM64);
    }

    /** SSM GetParameter over a fixed name-to-value map; unknown names get {@code ParameterNotFound}. */
    public static Responder ssmParameters(Map<String, String> parameters) {
        Map<String, String> known = new TreeMap<>(parameters);
        return request -> {
            String name = field(request, "Name");
            String value = known.get(name);
            if (value == null) {
                return awsJsonError("ParameterNotFound", "");
            }
            ObjectNode p = JSON.createObjectNode().put("Name", name).put("Type", "String").put("Value", value)
                    .put("Version", 1).put("LastModifiedDate", 1735689600.0)
                    .put("ARN", "arn:aws:ssm:us-east-1::parameter" + name).put("DataType", "text");
            return StubResponse.awsJson(JSON.createObjectNode().set("Parameter", p).toString());
        };
    }

    /**
     * Pricing GetProducts for EC2 on-demand Linux prices: one product per instance type in the filter (or all), each
     * a JSON document inside a string, as the Price List API returns them. Prices are USD per hour.
     */
    public static Responder pricingProducts(Map<String, String> onDemandUsdPerHour) {
        return request -> {
            String wanted = null;
            for (JsonNode f : body(request).path("Filters")) {
                if (f.path("Field").asText().equals("instanceType")) {
                    wanted = f.path("Value").asText();
                }
            }
            ArrayNode list = JSON.createArrayNode();
            for (var e : new TreeMap<>(onDemandUsdPerHour).entrySet()) {
                if (wanted == null || wanted.equals(e.getKey())) {
                    list.add(product(e.getKey(), e.getValue()).toString());
                }
            }
            ObjectNode out = JSON.createObjectNode().put("FormatVersion", "aws_v1");
            out.set("PriceList", list);
            return StubResponse.awsJson(out.toString());
        };
    }

    private static ObjectNode product(String instanceType, String usd) {
        String sku = "SKU" + Integer.toHexString(instanceType.hashCode()).toUpperCase();
        ObjectNode p = JSON.createObjectNode().put("serviceCode", "AmazonEC2").put("version", "20250101000000")
                .put("publicationDate", "2025-01-01T00:00:00Z");
        ObjectNode product = p.putObject("product").put("productFamily", "Compute Instance").put("sku", sku);
        product.putObject("attributes").put("instanceType", instanceType).put("regionCode", "us-east-1")
                .put("operatingSystem", "Linux").put("tenancy", "Shared").put("preInstalledSw", "NA")
                .put("capacitystatus", "Used").put("licenseModel", "No License required");
        ObjectNode term = p.putObject("terms").putObject("OnDemand").putObject(sku + ".JRTCKXETXF")
                .put("sku", sku).put("offerTermCode", "JRTCKXETXF").put("effectiveDate", "2025-01-01T00:00:00Z");
        term.putObject("termAttributes");
        ObjectNode dimension = term.putObject("priceDimensions").putObject(sku + ".JRTCKXETXF.6YS6EN2CT7")
                .put("unit", "Hrs").put("beginRange", "0").put("endRange", "Inf")
                .put("description", "$" + usd + " per On Demand Linux " + instanceType + " Instance Hour")
                .put("rateCode", sku + ".JRTCKXETXF.6YS6EN2CT7");
        dimension.putArray("appliesTo");
        dimension.putObject("pricePerUnit").put("USD", usd);
        return p;
    }

    /** STS GetCallerIdentity (query XML) for a Lambda execution role in the stub's account. */
    public static Responder stsCallerIdentity() {
        return request -> StubResponse.xml(new Xml()
                .raw("<GetCallerIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">")
                .open("GetCallerIdentityResult")
                .leaf("Arn", "arn:aws:sts::" + Ec2State.ACCOUNT + ":assumed-role/gantry-provisioner/gantry")
                .leaf("UserId", "AROAEXAMPLEROLEID:gantry").leaf("Account", Ec2State.ACCOUNT)
                .close("GetCallerIdentityResult").open("ResponseMetadata")
                .leaf("RequestId", java.util.UUID.randomUUID()).close("ResponseMetadata")
                .close("GetCallerIdentityResponse").toString());
    }

    private static JsonNode body(RecordedRequest request) {
        try {
            return request.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(request.body());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("request body is not JSON: " + request.body(), e);
        }
    }

    private static String field(RecordedRequest request, String name) {
        return body(request).path(name).asText(null);
    }

}
