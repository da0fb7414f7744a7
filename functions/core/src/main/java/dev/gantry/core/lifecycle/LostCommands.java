package dev.gantry.core.lifecycle;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The consolidation commands that are still under way but already lost: their leader's mark is active and one of their
 * replacements failed ({@link ConsolidationMark#failedReplacement}). Such a command is aborted at its next look, its
 * candidates untainted and kept, its replacements not yet launched closed. Until then the provisioner must not act on
 * its success: it launches none of its other replacements (each would be terminated unused at the abort) and does not
 * plan its candidates' pods as leaving (a claim launched for them would stand empty once they stay).
 */
public final class LostCommands {
    private final Set<String> commands;

    private LostCommands(Set<String> commands) {
        this.commands = commands;
    }

    /** The lost commands among {@code claims} (Terminated ones included: a failed replacement is one). */
    public static LostCommands among(List<NodeClaim> claims) {
        Map<String, NodeClaim> byName = new HashMap<>();
        claims.forEach(c -> byName.putIfAbsent(c.name(), c));
        Set<String> lost = new TreeSet<>();
        for (NodeClaim c : claims) {
            ConsolidationMark m = c.consolidation();
            if (m != null && m.isLeader(c.name()) && m.phase().active()
                    && m.failedReplacement(name -> Optional.ofNullable(byName.get(name))).isPresent()) {
                lost.add(m.command());
            }
        }
        return new LostCommands(lost);
    }

    /** These and {@code command}: a replacement of it has just failed. */
    public LostCommands with(String command) {
        Set<String> more = new TreeSet<>(commands);
        more.add(command);
        return new LostCommands(more);
    }

    /** Whether {@code c} takes part in a lost command (as a candidate or a replacement). */
    public boolean contains(NodeClaim c) {
        return c != null && c.consolidation() != null && commands.contains(c.consolidation().command());
    }
}
