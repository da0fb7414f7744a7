package dev.gantry.config.catalog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The AWS regions the offline catalogue knows, with the zone letters an account may see in each: the commercial,
 * GovCloud and China regions of AWS's published region list (the SDK's partition metadata names the same regions; a
 * test holds the two together). Isolated (ISO) partitions and the European Sovereign Cloud are not listed: they are
 * "plausible" regions, which {@link #problemWithRegion} warns about rather than refuses.
 *
 * <p>Zone <em>names</em> are per account (AWS maps {@code us-east-1a} to different physical zones in different accounts,
 * and a newer account may not see an older letter), so a letter listed here is one some account can see; {@link
 * Region#defaultZones()} are three that every account created today sees, used when nothing names the zones. A Local
 * Zone or Wavelength Zone ({@code us-east-1-bos-1a}) is recognised by its shape; the catalogue has no list of them.
 */
public final class Regions {
    /** A region: its id, every zone letter an account may see, and the letters planning assumes when none are named. */
    public record Region(String id, List<String> zoneLetters, List<String> defaultLetters) {
        /** Full zone names ({@code us-east-1a}), every one an account may see. */
        public List<String> zones() {
            return zoneLetters.stream().map(l -> id + l).toList();
        }

        /** The zones planning assumes when none are named. */
        public List<String> defaultZones() {
            return defaultLetters.stream().map(l -> id + l).toList();
        }
    }

    private static final Pattern PLAUSIBLE = Pattern.compile("([a-z]{2}|eusc)(-gov|-iso[a-z]?)?-(north|south|east|west|central|northeast|northwest|southeast|southwest)-[0-9]{1,2}");
    private static final Pattern LOCAL_ZONE = Pattern.compile("(.+-[0-9]{1,2})-[a-z]{2,}[a-z0-9-]*-[0-9][a-z]");
    private static final Map<String, Region> KNOWN = table();

    private Regions() {
    }

    private static Map<String, Region> table() {
        Map<String, Region> m = new LinkedHashMap<>();
        for (String id : List.of("us-east-2", "af-south-1", "ap-east-1", "ap-east-2", "ap-south-1", "ap-south-2",
                "ap-southeast-1", "ap-southeast-2", "ap-southeast-3", "ap-southeast-4", "ap-southeast-5", "ap-southeast-6",
                "ap-southeast-7", "ap-northeast-3", "ca-west-1", "eu-central-1", "eu-central-2", "eu-west-1", "eu-west-2",
                "eu-west-3", "eu-south-1", "eu-south-2", "eu-north-1", "il-central-1", "me-south-1", "me-central-1",
                "mx-central-1", "sa-east-1", "us-gov-east-1", "us-gov-west-1", "cn-northwest-1")) {
            put(m, id, "abc", "abc");
        }
        put(m, "us-east-1", "abcdef", "abc");
        put(m, "us-west-1", "abc", "ac"); // an account sees two of the three; new accounts see a and c
        put(m, "us-west-2", "abcd", "abc");
        put(m, "ap-northeast-1", "abcd", "acd"); // b only in accounts that had it before 2013
        put(m, "ap-northeast-2", "abcd", "abc");
        put(m, "ca-central-1", "abd", "abd");
        put(m, "cn-north-1", "abd", "abd");
        return Map.copyOf(m);
    }

    private static void put(Map<String, Region> m, String id, String letters, String defaults) {
        m.put(id, new Region(id, letters(letters), letters(defaults)));
    }

    private static List<String> letters(String s) {
        List<String> out = new ArrayList<>();
        s.chars().forEach(c -> out.add(String.valueOf((char) c)));
        return List.copyOf(out);
    }

    /** The region, if the catalogue knows it. */
    public static Optional<Region> of(String id) {
        return Optional.ofNullable(id == null ? null : KNOWN.get(id));
    }

    /** Every region the catalogue knows, by id. */
    public static List<String> ids() {
        return KNOWN.keySet().stream().sorted().toList();
    }

    /**
     * What is wrong with a region id: null for a known region; a warning (see {@link RegionCheck#warning()}) for an id
     * shaped like a region's that the catalogue does not list; an error for anything else.
     */
    public static RegionCheck problemWithRegion(String id) {
        if (id != null && KNOWN.containsKey(id)) {
            return RegionCheck.OK;
        }
        if (id != null && PLAUSIBLE.matcher(id).matches()) {
            return new RegionCheck("region " + id + " is not in the built-in catalogue's region list; its zones and "
                    + "prices are unknown offline", true);
        }
        String near = dev.gantry.config.yaml.Suggest.closest(id == null ? "" : id, KNOWN.keySet());
        return new RegionCheck("'" + id + "' is not an AWS region" + (near == null ? "" : "; did you mean " + near + "?"), false);
    }

    /** A region check's outcome: {@code message} null when the region is known. */
    public record RegionCheck(String message, boolean warning) {
        static final RegionCheck OK = new RegionCheck(null, false);

        public boolean ok() {
            return message == null;
        }
    }

    /** The region a zone name belongs to: {@code us-east-1a} and {@code us-east-1-bos-1a} are both in us-east-1. */
    public static String regionOfZone(String zone) {
        var local = LOCAL_ZONE.matcher(zone);
        if (local.matches()) {
            return local.group(1);
        }
        return zone.length() > 1 && Character.isLetter(zone.charAt(zone.length() - 1))
                ? zone.substring(0, zone.length() - 1) : zone;
    }

    /** Whether this is a Local Zone or Wavelength Zone name ({@code us-east-1-bos-1a}). */
    public static boolean isLocalZone(String zone) {
        return LOCAL_ZONE.matcher(zone).matches();
    }

    /**
     * Why {@code zone} is not a zone of {@code region}, or null when it is (or may be: a Local Zone of the region, or a
     * well-formed zone of a region the catalogue does not know, whose zones it cannot check).
     */
    public static String zoneProblem(String region, String zone) {
        String zoneRegion = regionOfZone(zone);
        if (!zoneRegion.equals(region)) {
            return "zone " + zone + " is not in region " + region;
        }
        if (isLocalZone(zone)) {
            return null;
        }
        Optional<Region> r = of(region);
        if (r.isEmpty()) {
            return null;
        }
        if (r.get().zones().contains(zone)) {
            return null;
        }
        return "zone " + zone + " does not exist in " + region + " (its zones: " + String.join(", ", r.get().zones()) + ")";
    }
}
