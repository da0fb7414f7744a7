package dev.gantry.infra;

import java.nio.file.Files;
import java.nio.file.Path;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.ApplicationLogLevel;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.LoggingFormat;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.SnapStartConf;
import software.amazon.awscdk.services.lambda.SystemLogLevel;
import software.amazon.awscdk.services.lambda.VersionOptions;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;

/**
 * A function built from a {@link FunctionSpec}: its own role (nothing but its log group until granted more), its
 * own log group, Java 25 on arm64 with SnapStart, the spec's JIT tiers, and the {@value #ALIAS} alias on the published
 * version. Callers wire triggers to {@link #alias()}, never to the function: SnapStart only applies to published versions.
 */
public final class GantryFunction extends Construct {
    public static final String ALIAS = "live";

    /** Where the functions run, when not outside a VPC. */
    public record Placement(IVpc vpc, SubnetSelection subnets, ISecurityGroup securityGroup) {
    }

    private final Role role;
    private final Function function;
    private final Alias alias;

    public GantryFunction(Construct scope, FunctionSpec spec, Path assetsDir, Map<String, String> sharedEnv,
                          Placement placement) {
        super(scope, spec.constructId());
        Path jar = assetsDir.resolve(spec.name() + ".jar");
        if (!Files.isRegularFile(jar)) {
            throw new SynthInputException("missing " + jar.normalize()
                    + ": build the handlers first with 'mvn -B -DskipTests package' (or set -c assetsDir=<dir>)");
        }
        LogGroup logs = LogGroup.Builder.create(this, "Logs")
                .retention(RetentionDays.ONE_MONTH)
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        role = Role.Builder.create(this, "Role")
                .description("Gantry " + spec.name() + " function")
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
                .build();
        logs.grantWrite(role);
        if (placement != null) {
            // ENI management for VPC placement; Lambda documents no narrower policy for it.
            role.addManagedPolicy(
                    ManagedPolicy.fromAwsManagedPolicyName("service-role/AWSLambdaVPCAccessExecutionRole"));
            GantrySuppressions.vpcAccess(role);
        }
        Map<String, String> env = new TreeMap<>(sharedEnv);
        env.putAll(spec.environment());
        env.put("JAVA_TOOL_OPTIONS", spec.jit().javaToolOptions());
        Function.Builder b = Function.Builder.create(this, "Function")
                .description("Gantry " + spec.name())
                .runtime(Runtime.JAVA_25)
                .architecture(Architecture.ARM_64)
                .handler(spec.handler())
                .code(Code.fromAsset(jar.toString()))
                .memorySize(spec.settings().memoryMb())
                .timeout(software.amazon.awscdk.Duration.seconds(spec.settings().timeout().toSeconds()))
                .role(role)
                .environment(env)
                .snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS)
                .loggingFormat(LoggingFormat.JSON)
                .applicationLogLevelV2(ApplicationLogLevel.INFO)
                .systemLogLevelV2(SystemLogLevel.WARN)
                .logGroup(logs)
                .reservedConcurrentExecutions(spec.settings().reservedConcurrency())
                .currentVersionOptions(VersionOptions.builder().removalPolicy(RemovalPolicy.DESTROY).build());
        if (placement != null) {
            b.vpc(placement.vpc()).vpcSubnets(placement.subnets()).securityGroups(List.of(placement.securityGroup()));
        }
        function = b.build();
        // The warning asks that versions be published; the alias below publishes one on every code or config change.
        Annotations.of(function).acknowledgeWarning("@aws-cdk/aws-lambda:snapStartRequirePublish",
                "published through currentVersion and the live alias");
        alias = Alias.Builder.create(this, "Alias").aliasName(ALIAS).version(function.getCurrentVersion()).build();
    }

    /** Adds permissions to this function's role only. */
    public GantryFunction grant(List<PolicyStatement> statements) {
        statements.forEach(role::addToPolicy);
        return this;
    }

    public GantryFunction grant(PolicyStatement... statements) {
        return grant(List.of(statements));
    }

    public Role role() {
        return role;
    }

    public Function function() {
        return function;
    }

    public Alias alias() {
        return alias;
    }
}
