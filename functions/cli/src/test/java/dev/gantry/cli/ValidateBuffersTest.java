package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code gantry validate} prints one line per CapacityBuffer saying how it is sized and when it is wanted. */
class ValidateBuffersTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void printsOneLinePerBufferWithItsSizeLimitsAndSchedule() {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("validate", "../../samples/buffers");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString().lines().filter(l -> l.startsWith("CapacityBuffer/"))).containsExactly(
                "CapacityBuffer/batch-warm (autoscaling.x-k8s.io/v1beta1): replicas 2 of PodTemplate/batch-worker, always",
                "CapacityBuffer/batch-predicted (autoscaling.x-k8s.io/v1beta1): predicted p90 of NodePool batch of "
                        + "PodTemplate/batch-chunk, limits cpu=64 memory=256Gi, always",
                "CapacityBuffer/weekday-morning (autoscaling.x-k8s.io/v1beta1): as many as fit of PodTemplate/warm-m, "
                        + "limits cpu=20, from cron '50 8 * * 1-5' for 10h0m0s",
                "CapacityBuffer/web-headroom (autoscaling.x-k8s.io/v1beta1): replicas 2 or 20% of Deployment/web-frontend, "
                        + "limits cpu=4 memory=8Gi, always");
        assertThat(out.toString()).contains("PodTemplate/warm-m (v1)");
    }
}
