package dev.gantry.simulator.observe;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The invariant {@value #KIND}: reserved launches never exceed a reservation's count (#29 §4). Judged from what EC2
 * holds: the instances in each reservation (launched into it, not yet terminated or stopped) against its count. An
 * instance that takes a reservation past its count is a violation once, when first seen; EC2 refuses such a launch
 * ({@code ReservationCapacityExceeded}), so a violation means the simulated EC2 admitted more than a real one would,
 * and every figure of the run after it is suspect.
 */
public final class ReservationCounts {
    public static final String KIND = "reservationOverfilled";
    private final Set<String> reported = new HashSet<>();

    /**
     * The violations new since the last call.
     *
     * @param counts each reservation's count, by id
     * @param held   the instances each reservation holds now, oldest first, by id
     */
    public List<String> check(Map<String, Integer> counts, Map<String, List<String>> held) {
        List<String> out = new ArrayList<>();
        held.forEach((id, instances) -> {
            int count = counts.getOrDefault(id, 0);
            for (int k = count; k < instances.size(); k++) {
                if (reported.add(instances.get(k))) {
                    out.add(instances.get(k) + " is instance " + (k + 1) + " in capacity reservation " + id + " of "
                            + count);
                }
            }
        });
        return out;
    }
}
