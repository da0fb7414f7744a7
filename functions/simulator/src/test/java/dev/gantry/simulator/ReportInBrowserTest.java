package dev.gantry.simulator;

import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report in a real browser: headless Chromium (Debian's {@code chromium} package; {@code .ci/run} installs it)
 * lays the quickstart's report out at a narrow width, a probe script added to a copy of the page measures it, and a
 * screenshot is taken. Skipped when no Chromium is installed ({@code CHROMIUM} names another binary).
 */
class ReportInBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Measures the page after load and leaves the figures in an attribute that --dump-dom prints. */
    private static final String PROBE = """
            <script>
            const shown = s => [...document.querySelectorAll(s)].filter(e => getComputedStyle(e).display !== 'none').length;
            const r = {};
            const d = document.documentElement;
            r.pageOverflow = d.scrollWidth - d.clientWidth;
            r.preOverflow = Math.max(0, ...[...document.querySelectorAll('pre')].map(p => p.scrollWidth - p.clientWidth));
            r.rows = document.querySelectorAll('.timeline tr').length;
            r.keptRows = document.querySelectorAll('tr.k-kept').length;
            r.keptShown = shown('tr.k-kept');
            r.launchShown = shown('tr.k-launch');
            document.getElementById('f-launch').checked = false;
            r.launchShownWhenUnchecked = shown('tr.k-launch');
            const kept = document.getElementById('f-kept');
            if (kept) { kept.checked = true; }
            r.keptShownWhenChecked = shown('tr.k-kept');
            r.markers = document.querySelectorAll('svg[data-chart=nodes] g.marker').length;
            r.nodeTicks = [...document.querySelectorAll('svg[data-chart=nodes] text.ytick')].map(t => t.textContent);
            document.body.setAttribute('data-probe', JSON.stringify(r));
            </script>""";
    private static Path chromium;
    private static String page;

    @BeforeAll
    static void findChromiumAndRender() {
        chromium = chromium();
        Assumptions.assumeTrue(chromium != null, "no Chromium installed (apt-get install chromium)");
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/quickstart.yaml")), x -> { },
                Progress.none()).run();
        page = r.html();
    }

    static Path chromium() {
        List<String> candidates = new ArrayList<>();
        if (System.getenv("CHROMIUM") != null) {
            candidates.add(System.getenv("CHROMIUM"));
        }
        candidates.addAll(List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"));
        return candidates.stream().map(Path::of).filter(Files::isExecutable).findFirst().orElse(null);
    }

    /** Runs headless Chromium with the flags this machine needs (no sandbox as root, no background networking). */
    static String run(Path profile, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + profile));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("chromium did not finish in 90 s");
        }
        return new String(out, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void atANarrowWidthNothingHidesBehindAScrollbarAndTheFiltersWork(@TempDir Path dir) throws Exception {
        Path html = dir.resolve("report.html");
        Files.writeString(html, page.replace("</body>", PROBE + "</body>"));
        String dom = run(dir.resolve("profile"), "--window-size=820,1600", "--virtual-time-budget=5000", "--dump-dom",
                html.toUri().toString());
        Matcher m = Pattern.compile("data-probe=\"([^\"]*)\"").matcher(dom);
        assertThat(m.find()).as("the probe ran: " + dom.substring(0, Math.min(300, dom.length()))).isTrue();
        JsonNode r = JSON.readTree(m.group(1).replace("&quot;", "\"").replace("&amp;", "&"));
        assertThat(r.get("pageOverflow").asInt()).as("page wider than the window").isLessThanOrEqualTo(0);
        assertThat(r.get("preOverflow").asInt()).as("summary text behind a scrollbar").isLessThanOrEqualTo(0);
        assertThat(r.get("launchShown").asInt()).isPositive();
        assertThat(r.get("launchShownWhenUnchecked").asInt()).isZero();
        assertThat(r.get("keptShown").asInt()).isZero();
        assertThat(r.get("keptShownWhenChecked").asInt()).isEqualTo(r.get("keptRows").asInt());
        assertThat(r.get("markers").asInt()).isEqualTo(3); // apply, scale to 12, scale to 3
        List<String> ticks = new ArrayList<>();
        r.get("nodeTicks").forEach(t -> ticks.add(t.asText()));
        assertThat(ticks).doesNotHaveDuplicates().allMatch(t -> t.matches("\\d+"));
    }

    @Test
    void aScreenshotOfTheReportIsTaken(@TempDir Path dir) throws Exception {
        Path html = dir.resolve("report.html");
        Files.writeString(html, page);
        Path png = Path.of("target", "report-quickstart.png").toAbsolutePath();
        Files.createDirectories(png.getParent());
        Files.deleteIfExists(png);
        run(dir.resolve("profile"), "--window-size=1280,1800", "--screenshot=" + png, html.toUri().toString());
        byte[] bytes = Files.readAllBytes(png);
        assertThat(bytes.length).isGreaterThan(20_000);
        assertThat(new String(bytes, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
        var image = javax.imageio.ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1280);
    }
}
