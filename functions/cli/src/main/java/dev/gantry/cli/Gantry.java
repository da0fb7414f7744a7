package dev.gantry.cli;

import dev.gantry.cli.errors.CliFailure;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code gantry} command line. Subcommands are listed in {@link #SUBCOMMANDS}; add new ones there.
 * Exit codes: 0 success, 1 an unexpected failure, 2 invalid input (usage or configuration errors, a {@link CliFailure}).
 */
@Command(name = "gantry", mixinStandardHelpOptions = true, version = "gantry 0.1.0",
        description = "A Karpenter-compatible node autoscaler for Amazon EKS: validate, plan, simulate, and show what consolidation and drift would do.")
public final class Gantry implements Runnable {
    /** Every subcommand, in the order help lists them. */
    static final Class<?>[] SUBCOMMANDS = {ValidateCommand.class, PlanCommand.class, SimulateCommand.class,
            ConsolidateCommand.class, DriftCommand.class, StatusCommand.class};

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, for {@code main} and for tests that run commands in-process. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Gantry());
        for (Class<?> sub : SUBCOMMANDS) {
            cl.addSubcommand(sub);
        }
        // Never a stack trace: an unexpected failure is one line on stderr and exit 1.
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            if (ex instanceof CliFailure f) {
                f.render("gantry " + line.getCommandName() + ": ").forEach(line.getErr()::println);
                line.getOut().flush();
                line.getErr().flush();
                return 2;
            }
            line.getErr().println("gantry: internal error: " + ex);
            return 1;
        });
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
