package dev.gantry.core.model;

import static dev.gantry.core.requirements.Generators.biased;
import static dev.gantry.core.requirements.Generators.theory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.generators.SourceDSL.lists;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** Durations as Go's {@code time.ParseDuration} reads them and {@code Duration.String()} writes them. */
class KubeDurationTest {

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
            "30s,         PT30S",
            "336h,        PT336H",
            "24h0m0s,     PT24H",
            "1.5h,        PT1H30M",
            "500ms,       PT0.5S",
            "1h30m,       PT1H30M",
            "2h45m30.5s,  PT2H45M30.5S",
            ".5h,         PT30M",
            "1.h,         PT1H",
            "0,           PT0S",
            "+0,          PT0S",
            "-0,          PT0S",
            "0s,          PT0S",
            "-5s,         PT-5S",
            "+5s,         PT5S",
            "-1.5h,       PT-1H-30M",
            "1ns,         PT0.000000001S",
            "1us,         PT0.000001S",
            "1\u00b5s,    PT0.000001S",
            "1\u03bcs,    PT0.000001S",
            "1m1m,        PT2M",
            "0.9999999999s, PT0.999999999S",
            "2562047h47m16.854775807s, PT2562047H47M16.854775807S",
    })
    void parsesGoDurations(String text, String iso) {
        assertThat(KubeDuration.parse(text)).isEqualTo(Duration.parse(iso));
    }

    @Test
    void parsesTheMostNegativeGoDuration() {
        assertThat(KubeDuration.parse("-2562047h47m16.854775808s")).isEqualTo(Duration.ofNanos(Long.MIN_VALUE));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "10        | '10' is not a duration: missing unit (units: ns, us, ms, s, m, h)",
            "1h30      | '1h30' is not a duration: missing unit (units: ns, us, ms, s, m, h)",
            "1d        | '1d' is not a duration: unknown unit 'd' (units: ns, us, ms, s, m, h)",
            "1e3s      | '1e3s' is not a duration: unknown unit 'e' (units: ns, us, ms, s, m, h)",
            "10 days   | '10 days' is not a duration: unknown unit ' days' (units: ns, us, ms, s, m, h)",
            "h         | 'h' is not a duration (e.g. 30s, 10m, 24h0m0s)",
            ".s        | '.s' is not a duration (e.g. 30s, 10m, 24h0m0s)",
            "-         | '-' is not a duration (e.g. 30s, 10m, 24h0m0s)",
            "1h-5m     | '1h-5m' is not a duration: unknown unit 'h-' (units: ns, us, ms, s, m, h)",
            "-.5s-1s   | '-.5s-1s' is not a duration: unknown unit 's-' (units: ns, us, ms, s, m, h)",
            "--5s      | '--5s' is not a duration (e.g. 30s, 10m, 24h0m0s)",
            "Never     | 'Never' is not a duration (e.g. 30s, 10m, 24h0m0s)",
            "2562048h  | '2562048h' is not a duration: out of range (at most about 2562047h)",
    })
    void rejectsWhatGoRejects(String text, String message) {
        assertThatThrownBy(() -> KubeDuration.parse(text)).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    @Test
    void rejectsSurroundingWhitespaceAsGoDoes() {
        assertThatThrownBy(() -> KubeDuration.parse(" 30s")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KubeDuration.parse("30s ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsAnEmptyDuration() {
        assertThatThrownBy(() -> KubeDuration.parse("")).hasMessage("duration is empty");
        assertThatThrownBy(() -> KubeDuration.parse(null)).hasMessage("duration is empty");
    }

    @Test
    void neverIsTheAbsenceOfADuration() {
        assertThat(KubeDuration.parseOrNever("Never")).isEmpty();
        assertThat(KubeDuration.parseOrNever("720h")).contains(Duration.ofHours(720));
        assertThatThrownBy(() -> KubeDuration.parseOrNever("never")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KubeDuration.parseOrNever(null)).hasMessage("duration is empty");
    }

    @ParameterizedTest(name = "{0} prints as {1}")
    @CsvSource({
            "PT30S,             30s",
            "PT1H30M,           1h30m0s",
            "PT336H,            336h0m0s",
            "PT10M,             10m0s",
            "PT0S,              0s",
            "PT1.5S,            1.5s",
            "PT0.5S,            500ms",
            "PT0.0015S,         1.5ms",
            "PT0.0000015S,      1.5\u00b5s",
            "PT0.000000001S,    1ns",
            "PT-1M-30S,         -1m30s",
            "PT1M0.25S,         1m0.25s",
    })
    void formatsAsGoDoes(String iso, String text) {
        assertThat(KubeDuration.format(Duration.parse(iso))).isEqualTo(text);
    }

    @Test
    void formatsNeverForTheAbsentDuration() {
        assertThat(KubeDuration.format(Optional.empty())).isEqualTo("Never");
        assertThat(KubeDuration.format(Optional.of(Duration.ofSeconds(30)))).isEqualTo("30s");
    }

    @Test
    void formattedDurationsParseBack() {
        Gen<Long> nanos = Generate.oneOf(biased(Long.MIN_VALUE, Long.MAX_VALUE), biased(-10_000_000_000L, 10_000_000_000L),
                biased(-100_000L, 100_000L).map(s -> s * 1_000_000_000L));
        theory(500).forAll(nanos.map(Duration::ofNanos)).checkAssert(d -> {
            String text = KubeDuration.format(d);
            assertThat(KubeDuration.parse(text)).as("parse(%s)", text).isEqualTo(d);
        });
    }

    /** A duration as Karpenter's CRD pattern writes it, with the sum of its parts. */
    record Written(String text, Duration sum) {
    }

    @Test
    void everyDurationKarpentersPatternAllowsParsesToItsSum() {
        Gen<Written> part = biased(0L, 9999L).zip(Generate.pick(List.of("s", "m", "h")), (n, u) -> new Written(n + u,
                u.equals("s") ? Duration.ofSeconds(n) : u.equals("m") ? Duration.ofMinutes(n) : Duration.ofHours(n)));
        Gen<Written> written = lists().of(part).ofSizeBetween(1, 4).map(ps -> new Written(
                ps.stream().map(Written::text).reduce("", String::concat), ps.stream().map(Written::sum).reduce(Duration.ZERO, Duration::plus)));
        theory(300).forAll(written).checkAssert(w -> {
            assertThat(w.text()).matches("^(([0-9]+(s|m|h))+|Never)$");
            assertThat(KubeDuration.parse(w.text())).isEqualTo(w.sum());
        });
    }
}
