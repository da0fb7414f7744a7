package dev.gantry.infra;

import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import io.github.cdklabs.cdknag.NagPackProps;
import java.nio.file.Path;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Aspects;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;

/**
 * The CDK app: {@code cdk deploy -c clusterName=<cluster>} from {@code infra/}. Bad input ends the process with
 * exit code 2 and the problem on stderr, one line each, without a stack trace.
 */
public final class GantryApp {
    private GantryApp() {
    }

    public static void main(String[] args) {
        App app = new App();
        try {
            build(app, Path.of("").toAbsolutePath(), ConfigValidators.standard(), cliEnvironment());
        } catch (SynthInputException e) {
            System.err.println("gantry: " + e.getMessage().replace("\n", "\ngantry: "));
            System.exit(2);
        }
        app.synth();
    }

    /** The account and region the CDK CLI resolved, or null (an environment-agnostic stack) without both. */
    static Environment cliEnvironment() {
        String account = System.getenv("CDK_DEFAULT_ACCOUNT");
        String region = System.getenv("CDK_DEFAULT_REGION");
        return account == null || region == null ? null
                : Environment.builder().account(account).region(region).build();
    }

    /**
     * Adds the stack (and the cdk-nag checks) to {@code app}.
     *
     * @param env the target account and region, or null for an environment-agnostic stack
     * @throws SynthInputException when the context, the YAML or the jars are not usable
     */
    public static GantryStack build(App app, Path baseDir, ConfigValidator validator, Environment env) {
        GantryAutoscalerProps props = AppContext.read(k -> app.getNode().tryGetContext(k), baseDir, validator);
        StackProps.Builder sp = StackProps.builder().stackName(GantryStack.nameFor(props.clusterName()))
                .description("Gantry node autoscaler for EKS cluster " + props.clusterName()).env(env);
        GantryStack stack = new GantryStack(app, GantryStack.nameFor(props.clusterName()), sp.build(), props);
        Aspects.of(app).add(new AwsSolutionsChecks(NagPackProps.builder().verbose(true).build()));
        return stack;
    }
}
