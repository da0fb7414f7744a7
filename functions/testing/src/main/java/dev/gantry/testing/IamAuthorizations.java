package dev.gantry.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.testing.Ec2Resources.LaunchTemplate;
import dev.gantry.testing.iam.IamCall;
import dev.gantry.testing.iam.IamRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What IAM checks for a request the {@link AwsStub} receives, read from the request and the EC2 model as it was
 * before the request: the caller (the SigV4 credential's access key id), and one {@link IamRequest} per action on
 * each resource, as AWS documents it for EC2 ("Grant required permissions for Amazon EC2 resources", "Resource-level
 * permissions for RunInstances", EC2 Fleet prerequisites, "Grant permission to tag resources during creation"):
 * <ul>
 *   <li>Describe* calls have no resource-level permissions: one check on {@code *}.</li>
 *   <li>CreateFleet (instant) is authorized as {@code ec2:CreateFleet} on the fleet and as both
 *       {@code ec2:CreateFleet} and {@code ec2:RunInstances} on every resource a launch creates (instance, volume,
 *       network interface, spot request for spot) or uses (launch template, image, subnets, security groups, the
 *       capacity reservation the template targets), with
 *       {@code aws:RequestTag/*} on created resources (the fleet's TagSpecifications over the launch template's)
 *       and {@code aws:ResourceTag/*} on existing ones; each created resource with tags also needs
 *       {@code ec2:CreateTags} with {@code ec2:CreateAction=CreateFleet}; the instance profile's role needs
 *       {@code iam:PassRole} with {@code iam:PassedToService=ec2.amazonaws.com}.</li>
 *   <li>CreateLaunchTemplate: the template with its request tags, and CreateTags on create.</li>
 *   <li>TerminateInstances, DeleteLaunchTemplate, CreateTags: each named resource with its current tags.</li>
 *   <li>S3, Secrets Manager and Lambda Invoke: see {@code s3}, {@code secretsManager} and {@code lambda} below.</li>
 * </ul>
 * Every check carries {@code aws:RequestedRegion} (the credential scope's region).
 */
final class IamAuthorizations {
    private static final Pattern CREDENTIAL = Pattern.compile("Credential=([^/,\\s]+)/[^/]+/([^/]+)/([^/]+)/");
    /** The random suffix of the stub's secret ARNs (AWS appends six random characters to a secret's name). */
    static final String SECRET_SUFFIX = dev.gantry.testing.iam.CfnTemplate.SECRET_SUFFIX;
    private static final Pattern FULL_SECRET_ARN = Pattern.compile("^arn:[^:]+:secretsmanager:[^:]+:[0-9]{12}:secret:.+-[A-Za-z0-9]{6}$");
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Ec2State ec2;
    private final String account;

    IamAuthorizations(Ec2State ec2) {
        this.ec2 = ec2;
        this.account = Ec2State.ACCOUNT;
    }

    IamCall of(RecordedRequest q) {
        String auth = q.header("authorization").orElse("Credential=" + q.params().getOrDefault("X-Amz-Credential", ""));
        Matcher m = CREDENTIAL.matcher(auth);
        boolean signed = m.find();
        String principal = signed ? m.group(1) : "anonymous";
        String region = signed ? m.group(2) : "unknown";
        String service = signed ? m.group(3) : "unknown";
        Scope s = new Scope(region, service);
        try {
            return switch (service) {
                case "ec2" -> new IamCall(principal, "ec2:" + q.param("Action"), ec2(q, s));
                case "sts" -> new IamCall(principal, "sts:" + q.param("Action"), List.of());
                case "ssm" -> ssm(principal, q, s);
                case "pricing" -> {
                    String op = q.target().orElse("").replaceFirst("^.*\\.", "");
                    yield new IamCall(principal, "pricing:" + op, List.of(s.check("pricing:" + op, "*", Map.of())));
                }
                case "eks" -> eks(principal, q, s);
                case "s3" -> s3(principal, q, s);
                case "secretsmanager" -> secretsManager(principal, q, s);
                case "lambda" -> lambda(principal, q, s);
                default -> new IamCall(principal, service + ":" + q.action(),
                        List.of(s.check(service + ":" + q.action(), "*", Map.of())));
            };
        } catch (RuntimeException e) {
            return new IamCall(principal, service + ":" + q.action(), List.of(s.check("stub:AuthorizationModelFailed",
                    e.toString(), Map.of())));
        }
    }

    private List<IamRequest> ec2(RecordedRequest q, Scope s) {
        String action = q.param("Action");
        String ec2 = "ec2:" + action;
        return switch (action) {
            case "CreateFleet" -> createFleet(q, s);
            case "CreateLaunchTemplate" -> {
                Map<String, String> tags = Ec2Actions.tags(q, "launch-template");
                List<IamRequest> out = new ArrayList<>();
                out.add(s.check(ec2, s.ec2Arn("launch-template", "*"), requestTags(tags)));
                out.addAll(tagOnCreate(s, "CreateLaunchTemplate", s.ec2Arn("launch-template", "*"), tags));
                yield out;
            }
            // An unknown id fails the call with InvalidInstanceID.NotFound (the stub answers so), not AccessDenied.
            case "TerminateInstances" -> q.values("InstanceId").stream().filter(id -> ec2State().instance(id).isPresent())
                    .map(id -> s.check(ec2, s.ec2Arn("instance", id),
                            resourceTags(ec2State().instance(id).orElseThrow().tags()))).toList();
            case "DeleteLaunchTemplate" -> {
                Optional<LaunchTemplate> t = ec2State().launchTemplate(Optional.ofNullable(q.param("LaunchTemplateId"))
                        .orElse(q.param("LaunchTemplateName")));
                yield List.of(s.check(ec2, s.ec2Arn("launch-template", t.map(LaunchTemplate::id).orElse("unknown")),
                        resourceTags(t.map(LaunchTemplate::tags).orElse(Map.of()))));
            }
            case "CreateTags", "DeleteTags" -> {
                Map<String, String> tags = new LinkedHashMap<>();
                q.members("Tag").forEach(t -> tags.put(t.get("Key"), t.getOrDefault("Value", "")));
                yield q.values("ResourceId").stream().map(id -> {
                    Map<String, List<String>> context = new LinkedHashMap<>(requestTags(tags));
                    context.putAll(resourceTags(ec2State().instance(id).map(Ec2Resources.Instance::tags)
                            .orElse(Map.of())));
                    return s.check(ec2, s.ec2Arn(typeOf(id), id), context);
                }).toList();
            }
            default -> List.of(s.check(ec2, "*", Map.of()));
        };
    }

    private List<IamRequest> createFleet(RecordedRequest q, Scope s) {
        boolean spot = "spot".equals(q.param("TargetCapacitySpecification.DefaultTargetCapacityType"));
        List<IamRequest> out = new ArrayList<>();
        Map<String, String> fleetTags = Ec2Actions.tags(q, "fleet");
        out.add(s.check("ec2:CreateFleet", s.ec2Arn("fleet", "*"), requestTags(fleetTags)));
        out.addAll(tagOnCreate(s, "CreateFleet", s.ec2Arn("fleet", "*"), fleetTags));
        Set<String> profiles = new LinkedHashSet<>();
        for (int c = 1; !q.paramsWithPrefix("LaunchTemplateConfigs." + c + ".").isEmpty(); c++) {
            String config = "LaunchTemplateConfigs." + c + ".";
            String ref = Optional.ofNullable(q.param(config + "LaunchTemplateSpecification.LaunchTemplateId"))
                    .orElse(q.param(config + "LaunchTemplateSpecification.LaunchTemplateName"));
            Optional<LaunchTemplate> lt = ref == null ? Optional.empty() : ec2State().launchTemplate(ref);
            List<Existing> used = new ArrayList<>();
            used.add(new Existing(s.ec2Arn("launch-template", lt.map(LaunchTemplate::id).orElse("unknown")),
                    lt.map(LaunchTemplate::tags).orElse(Map.of())));
            Set<String> images = new LinkedHashSet<>();
            Set<String> subnets = new LinkedHashSet<>();
            for (SortedMap<String, String> o : q.members(config + "Overrides")) {
                Optional.ofNullable(o.get("ImageId")).or(() -> lt.map(LaunchTemplate::imageId)).ifPresent(images::add);
                Optional.ofNullable(o.get("SubnetId")).ifPresent(subnets::add);
            }
            images.forEach(id -> used.add(new Existing(s.arn("ec2", "", "image/" + id),
                    ec2State().image(id).map(Ec2Resources.Image::tags).orElse(Map.of()))));
            subnets.forEach(id -> used.add(new Existing(s.ec2Arn("subnet", id),
                    ec2State().subnet(id).map(Ec2Resources.Subnet::tags).orElse(Map.of()))));
            // A template that targets a capacity reservation uses it too (Karpenter's controller policy grants
            // capacity-reservation/* on CreateFleet and RunInstances for that reason).
            lt.map(t -> ec2State().reservations().targetOf(t.id())).ifPresent(cr -> used.add(new Existing(
                    s.ec2Arn("capacity-reservation", cr), ec2State().reservations().get(cr) == null ? Map.of()
                    : ec2State().reservations().get(cr).tags())));
            lt.map(LaunchTemplate::securityGroupIds).orElse(List.of()).forEach(id -> used.add(new Existing(
                    s.ec2Arn("security-group", id), ec2State().securityGroup(id)
                    .map(Ec2Resources.SecurityGroup::tags).orElse(Map.of()))));
            for (Existing e : used) {
                for (String action : List.of("ec2:CreateFleet", "ec2:RunInstances")) {
                    out.add(s.check(action, e.arn(), resourceTags(e.tags())));
                }
            }
            Map<String, Map<String, String>> specs = lt.map(LaunchTemplate::tagSpecifications).orElse(Map.of());
            List<String> created = new ArrayList<>(List.of("instance", "volume", "network-interface"));
            if (spot) {
                created.add("spot-instances-request");
            }
            for (String type : created) {
                String tagType = type.equals("spot-instances-request") ? "instance" : type;
                Map<String, String> tags = new LinkedHashMap<>(specs.getOrDefault(tagType, Map.of()));
                tags.putAll(Ec2Actions.tags(q, tagType));
                for (String action : List.of("ec2:CreateFleet", "ec2:RunInstances")) {
                    out.add(s.check(action, s.ec2Arn(type, "*"), requestTags(tags)));
                }
                if (!type.equals("spot-instances-request")) {
                    out.addAll(tagOnCreate(s, "CreateFleet", s.ec2Arn(type, "*"), tags));
                }
            }
            lt.map(LaunchTemplate::instanceProfile).ifPresent(profiles::add);
        }
        // A profile IAM does not know passes no role: EC2 refuses the launch on it (Ec2Actions.createFleet).
        for (String profile : profiles) {
            ec2State().instanceProfileRole(profile).ifPresent(role -> out.add(s.check("iam:PassRole",
                    "arn:aws:iam::" + account + ":role/" + role, Map.of("iam:PassedToService", List.of("ec2.amazonaws.com")))));
        }
        return out;
    }

    private static List<IamRequest> tagOnCreate(Scope s, String createAction, String arn, Map<String, String> tags) {
        if (tags.isEmpty()) {
            return List.of();
        }
        Map<String, List<String>> context = new LinkedHashMap<>(requestTags(tags));
        context.put("ec2:CreateAction", List.of(createAction));
        return List.of(s.check("ec2:CreateTags", arn, context));
    }

    private IamCall ssm(String principal, RecordedRequest q, Scope s) {
        String op = q.target().orElse("").replaceFirst("^.*\\.", "");
        JsonNode body = json(q.body());
        List<String> names = new ArrayList<>();
        if (body.has("Name")) {
            names.add(body.get("Name").asText());
        }
        body.path("Names").forEach(n -> names.add(n.asText()));
        List<IamRequest> checks = names.stream().map(n -> {
            String path = n.startsWith("/") ? n.substring(1) : n;
            // AWS-owned public parameters have no account in their ARN.
            return s.check("ssm:" + op, s.arn("ssm", path.startsWith("aws/") ? "" : account, "parameter/" + path),
                    Map.of());
        }).toList();
        return new IamCall(principal, "ssm:" + op, checks.isEmpty() ? List.of(s.check("ssm:" + op, "*", Map.of()))
                : checks);
    }

    private IamCall eks(String principal, RecordedRequest q, Scope s) {
        Matcher m = Pattern.compile("^/clusters/([^/]+)$").matcher(q.path());
        if (q.method().equals("GET") && m.matches()) {
            return new IamCall(principal, "eks:DescribeCluster", List.of(s.check("eks:DescribeCluster",
                    s.arn("eks", account, "cluster/" + m.group(1)), Map.of())));
        }
        return new IamCall(principal, "eks:" + q.action(), List.of(s.check("eks:" + q.action(), "*", Map.of())));
    }

    /**
     * Path-style S3: {@code GET /bucket/key} is {@code s3:GetObject} on the object's ARN; a {@code GET} of the bucket
     * itself (ListObjects, ListObjectsV2) is {@code s3:ListBucket} on the bucket's ARN. S3 ARNs carry neither region
     * nor account.
     */
    private static IamCall s3(String principal, RecordedRequest q, Scope s) {
        String path = q.path().startsWith("/") ? q.path().substring(1) : q.path();
        int slash = path.indexOf('/');
        boolean object = slash > 0 && slash < path.length() - 1;
        String bucket = slash < 0 ? path : path.substring(0, slash);
        String action;
        String resource;
        if (q.method().equals("GET") && object) {
            action = "s3:GetObject";
            resource = "arn:aws:s3:::" + path;
        } else if (q.method().equals("GET")) {
            action = "s3:ListBucket";
            resource = "arn:aws:s3:::" + bucket;
        } else {
            action = "s3:" + q.action();
            resource = "*";
        }
        return new IamCall(principal, action, List.of(s.check(action, resource, Map.of())));
    }

    /**
     * GetSecretValue (and the other secret operations) are authorized on the secret's full ARN, which ends in
     * {@code -} and six random characters. A request naming the secret by name or partial ARN is authorized on the
     * ARN of that name with the suffix the stub's secrets have, {@value #SECRET_SUFFIX} (the suffix the contract's
     * template resolution gives a template secret too).
     */
    private IamCall secretsManager(String principal, RecordedRequest q, Scope s) {
        String op = q.target().orElse("").replaceFirst("^.*\\.", "");
        String action = "secretsmanager:" + op;
        JsonNode id = json(q.body()).path("SecretId");
        if (id.isMissingNode()) {
            return new IamCall(principal, action, List.of(s.check(action, "*", Map.of())));
        }
        String secret = id.asText();
        String resource;
        if (FULL_SECRET_ARN.matcher(secret).matches()) {
            resource = secret;
        } else {
            String name = secret.startsWith("arn:") ? secret.substring(secret.indexOf(":secret:") + ":secret:".length())
                    : secret;
            resource = s.arn("secretsmanager", account, "secret:" + name + SECRET_SUFFIX);
        }
        return new IamCall(principal, action, List.of(s.check(action, resource, Map.of())));
    }

    /**
     * Lambda Invoke ({@code POST /2015-03-31/functions/{name}/invocations}) is {@code lambda:InvokeFunction} on the
     * function's ARN as the request names it: qualified (an alias or version, in the name or as {@code Qualifier})
     * or not. A policy on the alias ARN does not cover the unqualified function, nor the reverse.
     */
    private IamCall lambda(String principal, RecordedRequest q, Scope s) {
        Matcher m = Pattern.compile("^/2015-03-31/functions/([^/]+)/invocations$").matcher(q.path());
        if (!q.method().equals("POST") || !m.matches()) {
            return new IamCall(principal, "lambda:" + q.action(), List.of(s.check("lambda:" + q.action(), "*", Map.of())));
        }
        String name = java.net.URLDecoder.decode(m.group(1), java.nio.charset.StandardCharsets.UTF_8);
        String arn;
        if (name.startsWith("arn:")) {
            arn = name;
        } else if (name.matches("[0-9]{12}:function:.+")) {
            arn = "arn:aws:lambda:" + s.region() + ":" + name;
        } else {
            arn = s.arn("lambda", account, "function:" + name);
        }
        String qualifier = q.param("Qualifier");
        if (qualifier != null && arn.split(":").length == 7) {
            arn = arn + ":" + qualifier;
        }
        return new IamCall(principal, "lambda:Invoke", List.of(s.check("lambda:InvokeFunction", arn, Map.of())));
    }

    private Ec2State ec2State() {
        return ec2;
    }

    private static String typeOf(String id) {
        return switch (id.replaceFirst("-.*", "")) {
            case "i" -> "instance";
            case "lt" -> "launch-template";
            case "vol" -> "volume";
            case "eni" -> "network-interface";
            case "fleet" -> "fleet";
            case "sg" -> "security-group";
            case "subnet" -> "subnet";
            case "ami" -> "image";
            default -> "unknown";
        };
    }

    private static Map<String, List<String>> requestTags(Map<String, String> tags) {
        Map<String, List<String>> context = new LinkedHashMap<>();
        tags.forEach((k, v) -> context.put("aws:RequestTag/" + k, List.of(v)));
        // aws:TagKeys is only in the context of a request that carries tags.
        if (!tags.isEmpty()) {
            context.put("aws:TagKeys", List.copyOf(tags.keySet()));
        }
        return context;
    }

    private static Map<String, List<String>> resourceTags(Map<String, String> tags) {
        Map<String, List<String>> context = new LinkedHashMap<>();
        tags.forEach((k, v) -> context.put("aws:ResourceTag/" + k, List.of(v)));
        return context;
    }

    private static JsonNode json(String body) {
        try {
            return JSON.readTree(body.isBlank() ? "{}" : body);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not JSON: " + body, e);
        }
    }

    private record Existing(String arn, Map<String, String> tags) {
    }

    private record Scope(String region, String service) {
        IamRequest check(String action, String resource, Map<String, List<String>> context) {
            Map<String, List<String>> all = new LinkedHashMap<>(context);
            all.put("aws:RequestedRegion", List.of(region));
            return new IamRequest(action, resource, all);
        }

        String arn(String svc, String account, String resource) {
            return "arn:aws:" + svc + ":" + region + ":" + account + ":" + resource;
        }

        String ec2Arn(String type, String id) {
            return arn("ec2", Ec2State.ACCOUNT, type + "/" + id);
        }
    }
}
