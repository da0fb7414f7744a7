package dev.gantry.handlers.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A CPU quota for a benchmark's child process, as Lambda gives a function a share of a vCPU: a Linux cgroup whose
 * CFS quota is that share of each 100 ms period (cgroup v1's {@code cpu.cfs_quota_us}, or v2's {@code cpu.max}). The
 * child is put in it by a shell that writes its own pid into the group and then execs the command. Needs a writable
 * cgroup hierarchy (root, or a delegated one); where there is none, {@link #wrap} says why and adds nothing.
 */
final class CpuQuota {
    private static final long PERIOD_US = 100_000;

    private CpuQuota() {
    }

    /** The words to put before a command so it runs under {@code vcpu} of a CPU, or none (with a line saying why). */
    static List<String> wrap(double vcpu) {
        long quota = Math.round(vcpu * PERIOD_US);
        try {
            Path procs;
            Path v2 = Path.of("/sys/fs/cgroup/cgroup.controllers");
            if (Files.exists(v2)) {
                Path g = Files.createDirectories(Path.of("/sys/fs/cgroup/gantry-bench"));
                Files.writeString(g.resolve("cpu.max"), quota + " " + PERIOD_US);
                procs = g.resolve("cgroup.procs");
            } else {
                Path g = Files.createDirectories(Path.of("/sys/fs/cgroup/cpu/gantry-bench"));
                Files.writeString(g.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_US));
                Files.writeString(g.resolve("cpu.cfs_quota_us"), Long.toString(quota));
                procs = g.resolve("cgroup.procs");
            }
            System.out.printf("BENCH cpu quota: %.3f vCPU (%d us of every %d us, %s)%n", vcpu, quota, PERIOD_US, procs.getParent());
            return List.of("sh", "-c", "echo $$ > " + procs + " && exec \"$@\"", "sh");
        } catch (IOException | RuntimeException e) {
            System.out.println("BENCH cpu quota: none could be set (" + e + "); the child runs on the whole machine");
            return List.of();
        }
    }
}
