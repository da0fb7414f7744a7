package dev.gantry.config.karpenter;

import java.util.List;
import java.util.Locale;

/** Validates the five-field UTC cron schedules (and {@code @daily}-style macros) that disruption budgets use. */
final class Cron {
    private static final List<String> MACROS = List.of("@annually", "@yearly", "@monthly", "@weekly", "@daily", "@midnight", "@hourly");
    private static final String[] FIELDS = {"minute", "hour", "day-of-month", "month", "day-of-week"};
    private static final int[][] RANGES = {{0, 59}, {0, 23}, {1, 31}, {1, 12}, {0, 6}};
    private static final List<String> MONTHS = List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");
    private static final List<String> DAYS = List.of("sun", "mon", "tue", "wed", "thu", "fri", "sat");

    private Cron() {
    }

    /** Why {@code schedule} is not a valid schedule, or null. */
    static String problem(String schedule) {
        String s = schedule.trim();
        if (s.startsWith("@")) {
            return MACROS.contains(s) ? null : "unknown macro " + s + " (" + String.join(", ", MACROS) + ")";
        }
        String[] parts = s.split("\\s+");
        if (parts.length != 5) {
            return "expected 5 fields (minute hour day-of-month month day-of-week), got " + parts.length;
        }
        for (int i = 0; i < 5; i++) {
            for (String item : parts[i].split(",", -1)) {
                String p = item(item, i);
                if (p != null) {
                    return FIELDS[i] + " field '" + parts[i] + "' " + p;
                }
            }
        }
        return null;
    }

    private static String item(String item, int field) {
        String range = item;
        int slash = item.indexOf('/');
        if (slash >= 0) {
            range = item.substring(0, slash);
            if (!item.substring(slash + 1).matches("[0-9]+") || Integer.parseInt(item.substring(slash + 1)) == 0) {
                return "has a bad step";
            }
        }
        if (range.equals("*") || range.equals("?")) {
            return null;
        }
        String[] ends = range.split("-", -1);
        if (ends.length > 2) {
            return "is not a value or range";
        }
        int lo = RANGES[field][0];
        int hi = RANGES[field][1];
        for (String end : ends) {
            Integer v = value(end, field);
            if (v == null) {
                return "is not a value or range";
            }
            if (v < lo || v > hi) {
                return "is out of range " + lo + "-" + hi;
            }
        }
        return null;
    }

    private static Integer value(String s, int field) {
        if (s.matches("[0-9]{1,2}")) {
            return Integer.parseInt(s);
        }
        String l = s.toLowerCase(Locale.ROOT);
        if (field == 3 && MONTHS.contains(l)) {
            return MONTHS.indexOf(l) + 1;
        }
        if (field == 4 && DAYS.contains(l)) {
            return DAYS.indexOf(l);
        }
        return null;
    }
}
