package dev.gantry.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A pattern packing with quotas ({@link Quotas}): the replicas of a spread may go to any zone, but each zone ends with
 * exactly its count of them, whatever the LP rounds to (the rounding caps each cell at its count and gives the pods it
 * could not fit a node of a cell with room left in its count; the repair moves none across cells).
 */
class QuotasTest {
    record Item(int id, Resources size, int group) {
    }

    record Type(Resources room, int cell, double price) {
    }

    private static final List<Resources> ROOMS = List.of(Resources.of(2000, 4096L << 20).with(Resources.PODS, 20),
            Resources.of(4000, 8192L << 20).with(Resources.PODS, 40), Resources.of(2000, 16_384L << 20).with(Resources.PODS, 20));

    @Test
    void everyCellEndsWithExactlyItsCountOfEachGroup() {
        for (int seed = 1; seed <= 40; seed++) {
            Random r = new Random(seed);
            int cells = 2 + r.nextInt(2);
            List<Type> types = new ArrayList<>();
            for (int c = 0; c < cells; c++) {
                for (Resources room : ROOMS) { // the zones price alike but for a few cents
                    types.add(new Type(room, c, room.cpuMillis() / 20_000.0 + r.nextInt(5) / 1000.0));
                }
            }
            List<Item> items = new ArrayList<>();
            int groups = 1 + r.nextInt(2);
            int[][] count = new int[groups][cells];
            for (int i = 0, shapes = 3 + r.nextInt(4); i < shapes; i++) {
                Resources size = Resources.of(250L * (1 + r.nextInt(6)), 512L * (1 + r.nextInt(12)) << 20).with(Resources.PODS, 1);
                int group = r.nextInt(groups + 1) - 1; // -1: no quota
                for (int n = 1 + r.nextInt(9); n > 0; n--) {
                    if (group >= 0) {
                        count[group][r.nextInt(cells)]++; // where the first passes put it
                    }
                    items.add(new Item(items.size(), size, group));
                }
            }
            int[] start = new int[items.size()];
            Map<Integer, int[]> left = new HashMap<>();
            for (int g = 0; g < groups; g++) {
                left.put(g, count[g].clone());
            }
            for (Item it : items) {
                start[it.id()] = -1;
                if (it.group() >= 0) {
                    int[] l = left.get(it.group());
                    int c = 0;
                    while (l[c] == 0) {
                        c++;
                    }
                    l[c]--;
                    start[it.id()] = c;
                }
            }
            Quotas<Item, Type> quotas = new Quotas<>(Item::group, Type::cell, count, it -> start[it.id()]);
            var bins = PatternPacking.pack(items, Item::size, Item::group, types, Type::room, Type::price, (k, t) -> true, 1e9,
                    JointRepack.EFFORT, List.of(), quotas);
            assertThat(bins).as("seed %d", seed).isNotNull();
            int[][] got = new int[groups][cells];
            int placed = 0;
            for (var bin : bins) {
                assertThat(bin.pods().stream().map(Item::size).reduce(Resources.ZERO, Resources::plus).fitsIn(bin.type().room())).isTrue();
                for (Item it : bin.pods()) {
                    placed++;
                    if (it.group() >= 0) {
                        got[it.group()][bin.type().cell()]++;
                    }
                }
            }
            assertThat(placed).as("seed %d", seed).isEqualTo(items.size());
            assertThat(got).as("seed %d", seed).isDeepEqualTo(count);
        }
    }
}
