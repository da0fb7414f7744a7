package dev.gantry.kube.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Timestamps read field by field (the API server's own form) mean what the JDK's RFC 3339 formatter says they mean. */
class PodMapperInstantTest {
    private static Instant formatter(String t) {
        return OffsetDateTime.parse(t, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    }

    @Test
    void theApiServersFormAndEveryOtherFormReadAsTheFormatterReadsThem() {
        List<String> values = new ArrayList<>(List.of("2026-05-01T10:00:00Z", "1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z",
                "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-05-01T10:00:00.123456Z", "2026-05-01T10:00:00+02:00",
                "2026-05-01T10:00:00.5-07:30"));
        Random r = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            values.add(Instant.ofEpochSecond(r.nextLong(-62_000_000_000L, 250_000_000_000L)).toString());
        }
        for (String v : values) {
            assertThat(PodMapper.instant(v)).as(v).isEqualTo(formatter(v));
        }
        assertThat(PodMapper.instant(null)).isNull();
        assertThat(PodMapper.instant("")).isNull();
    }

    @Test
    void aValueTheFormatterRefusesIsRefusedAsBefore() {
        for (String bad : List.of("2026-02-30T10:00:00Z", "2026-13-01T10:00:00Z", "2026-05-01T24:00:00Z", "2026-05-01T10:60:00Z",
                "2026-05-01T10:00:60Z", "2026-05-01 10:00:00Z", "2026-05-0aT10:00:00Z", "yesterday")) {
            assertThatThrownBy(() -> PodMapper.instant(bad)).as(bad).isInstanceOf(DateTimeParseException.class);
        }
    }
}
