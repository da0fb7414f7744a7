package dev.gantry.core.disruption;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A five-field UTC cron schedule (minute hour day-of-month month day-of-week) as disruption budgets use it: values,
 * {@code *}, lists, ranges, steps, month and weekday names, and the macros {@code @yearly}/{@code @annually},
 * {@code @monthly}, {@code @weekly}, {@code @daily}/{@code @midnight}, {@code @hourly}. Day-of-month and day-of-week
 * combine as in standard cron: when both are restricted a day matching either fires.
 */
public final class CronSchedule {
    private static final Map<String, String> MACROS = Map.of("@yearly", "0 0 1 1 *", "@annually", "0 0 1 1 *",
            "@monthly", "0 0 1 * *", "@weekly", "0 0 * * 0", "@daily", "0 0 * * *", "@midnight", "0 0 * * *",
            "@hourly", "0 * * * *");
    private static final int[][] RANGES = {{0, 59}, {0, 23}, {1, 31}, {1, 12}, {0, 7}};
    private static final List<String> MONTHS = List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");
    private static final List<String> DAYS = List.of("sun", "mon", "tue", "wed", "thu", "fri", "sat");

    private final BitSet[] fields = new BitSet[5];
    private final boolean domStar;
    private final boolean dowStar;

    private CronSchedule(String[] parts) {
        for (int i = 0; i < 5; i++) {
            fields[i] = field(parts[i], i);
        }
        if (fields[4].get(7)) {
            fields[4].set(0); // 7 is Sunday too
        }
        domStar = parts[2].startsWith("*") || parts[2].equals("?");
        dowStar = parts[4].startsWith("*") || parts[4].equals("?");
    }

    /** Parses a schedule. @throws IllegalArgumentException naming the bad field */
    public static CronSchedule parse(String schedule) {
        String s = schedule.trim().toLowerCase(Locale.ROOT);
        if (s.startsWith("@")) {
            String expanded = MACROS.get(s);
            if (expanded == null) {
                throw new IllegalArgumentException("unknown cron macro " + schedule);
            }
            s = expanded;
        }
        String[] parts = s.split("\\s+");
        if (parts.length != 5) {
            throw new IllegalArgumentException("cron '" + schedule + "' needs 5 fields, has " + parts.length);
        }
        return new CronSchedule(parts);
    }

    /** Whether the schedule fires in the minute containing {@code at}. */
    public boolean matches(Instant at) {
        ZonedDateTime t = at.atZone(ZoneOffset.UTC);
        boolean dom = fields[2].get(t.getDayOfMonth());
        boolean dow = fields[4].get(t.getDayOfWeek().getValue() % 7);
        boolean day = domStar || dowStar ? dom && dow : dom || dow;
        return fields[0].get(t.getMinute()) && fields[1].get(t.getHour()) && fields[3].get(t.getMonthValue()) && day;
    }

    /**
     * Whether a window of {@code duration} opened by a firing is open at {@code now}: as Karpenter decides it, the
     * first firing strictly after {@code now - duration} is at or before {@code now}.
     */
    public boolean isActive(Instant now, Duration duration) {
        Instant checkpoint = now.minus(duration);
        for (Instant m = checkpoint.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1)); !m.isAfter(now);
             m = m.plus(Duration.ofMinutes(1))) {
            if (matches(m)) {
                return true;
            }
        }
        return false;
    }

    private static BitSet field(String text, int f) {
        BitSet bits = new BitSet();
        for (String item : text.split(",", -1)) {
            int step = 1;
            String range = item;
            int slash = item.indexOf('/');
            if (slash >= 0) {
                step = Integer.parseInt(item.substring(slash + 1));
                range = item.substring(0, slash);
                if (step <= 0) {
                    throw new IllegalArgumentException("cron step must be positive in '" + item + "'");
                }
            }
            int lo;
            int hi;
            if (range.equals("*") || range.equals("?")) {
                lo = RANGES[f][0];
                hi = f == 4 ? 6 : RANGES[f][1];
            } else {
                String[] ends = range.split("-", -1);
                lo = value(ends[0], f);
                hi = ends.length == 2 ? value(ends[1], f) : (slash >= 0 ? RANGES[f][1] : lo);
                if (ends.length > 2 || lo > hi) {
                    throw new IllegalArgumentException("cron range '" + item + "' is not valid");
                }
            }
            for (int v = lo; v <= hi; v += step) {
                bits.set(v);
            }
        }
        return bits;
    }

    private static int value(String s, int f) {
        int v;
        if (f == 3 && MONTHS.contains(s)) {
            v = MONTHS.indexOf(s) + 1;
        } else if (f == 4 && DAYS.contains(s)) {
            v = DAYS.indexOf(s);
        } else {
            try {
                v = Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("cron value '" + s + "' is not a number or name");
            }
        }
        if (v < RANGES[f][0] || v > RANGES[f][1]) {
            throw new IllegalArgumentException("cron value " + v + " is out of range " + RANGES[f][0] + "-" + RANGES[f][1]);
        }
        return v;
    }
}
