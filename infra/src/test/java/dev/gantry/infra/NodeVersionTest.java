package dev.gantry.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Node.js the build and these tests run on (jsii for every synth, dynalite for the functions' tests) is one the
 * README names as supported, and the README names the one CI tests with: a CI image with another Node fails here,
 * saying to test it and update the README.
 */
class NodeVersionTest {
    private static final Path README = Path.of("../README.md");

    static List<Integer> supported() throws Exception {
        Matcher m = Pattern.compile("Node\\.js ((?:\\d+, )*\\d+) or (\\d+)").matcher(Files.readString(README));
        assertThat(m.find()).as("the README's prerequisites name the supported Node.js versions").isTrue();
        List<Integer> out = new ArrayList<>();
        for (String v : m.group(1).split(", ")) {
            out.add(Integer.parseInt(v));
        }
        out.add(Integer.parseInt(m.group(2)));
        return out;
    }

    @Test
    void theNodeOnThisMachineIsOneTheReadmeSupports() throws Exception {
        Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
        String version = new String(p.getInputStream().readAllBytes()).trim();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        int major = Integer.parseInt(version.replaceFirst("^v(\\d+)\\..*", "$1"));
        assertThat(supported()).as("Node " + version + " is not among the README's supported versions: test it, "
                + "then name it in the README's prerequisites").contains(major);
    }

    @Test
    void theReadmeSaysWhichNodeCiTestsWith() throws Exception {
        String readme = Files.readString(README);
        assertThat(readme).containsPattern("CI[^.]*runs Node\\.js 20");
    }
}
