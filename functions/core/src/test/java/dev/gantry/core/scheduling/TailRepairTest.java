package dev.gantry.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The last pass of a packing: the emptiest bins give their pods to the room other bins have left. */
class TailRepairTest {
    static final Resources ROOM = Resources.of(4000, 4L << 30);

    static List<Resources> n(int count, Resources r) {
        List<Resources> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(Resources.of(r.cpuMillis(), r.memoryBytes())); // distinct objects: pods are told apart by identity
        }
        return out;
    }

    @Test
    void emptiesATailBinWhosePodsFitInTheOthersRoom() {
        var full = new ShapePacking.Bin<Resources, Resources>(ROOM, new ArrayList<>(n(3, Resources.of(1000, 1L << 30))));
        var full2 = new ShapePacking.Bin<Resources, Resources>(ROOM, new ArrayList<>(n(3, Resources.of(1000, 1L << 30))));
        var tail = new ShapePacking.Bin<Resources, Resources>(ROOM, new ArrayList<>(n(2, Resources.of(500, 512L << 20))));
        var out = TailRepair.repair(List.of(full, full2, tail), Function.identity(), Function.identity());
        assertThat(out).hasSize(2);
        assertThat(out.stream().mapToInt(b -> b.pods().size()).sum()).isEqualTo(8);
        for (var b : out) {
            Resources used = b.pods().stream().reduce(Resources.ZERO, Resources::plus);
            assertThat(used.fitsIn(ROOM)).isTrue();
        }
    }

    @Test
    void keepsABinWhosePodsFitNowhereElse() {
        var a = new ShapePacking.Bin<Resources, Resources>(ROOM, new ArrayList<>(n(4, Resources.of(1000, 1L << 30))));
        var b = new ShapePacking.Bin<Resources, Resources>(ROOM, new ArrayList<>(n(1, Resources.of(1000, 1L << 30))));
        var out = TailRepair.repair(List.of(a, b), Function.identity(), Function.identity());
        assertThat(out).hasSize(2);
    }
}
