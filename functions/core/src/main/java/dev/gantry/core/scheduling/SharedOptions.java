package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.HostPort;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import java.util.AbstractList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.function.Supplier;

/**
 * Options lists a pool's claims share. Claims that a Deployment's replicas open one each (under hostname
 * anti-affinity or spread, say), or fill alike (a zone spread's claims), go through the same fits: from the same options
 * list, under the same requirements, to the same requests. Each would otherwise keep its own copy of the same options
 * and rooms, a few KB on a catalogue of a thousand types, so a solve's live heap would grow by that much per pod.
 *
 * <p>Kept here, per pool and solve: a claim's fit from all of the pool's types or from a list handed out here (a
 * {@link Shared}), by the claim's requirements, the requirements it would take and the requests it would hold; and
 * the list {@link Claim#rightSize} builds, by requirements and requests. Only results that depend on nothing else are
 * kept: no host ports and no pool limits (the limits' headroom changes as claims commit). Bounded, so that a solve of
 * many distinct pod sizes keeps at most {@value #MAX} lists of each kind alive for nothing. Claims never change an
 * options list or rooms array in place (a {@link Shared} list cannot be changed), so sharing one is safe.
 */
final class SharedOptions {
    private static final int MAX = 64;

    /** An options list handed out here: fits from it depend only on the requirements and requests, so they are kept too. */
    static final class Shared extends AbstractList<InstanceType> implements RandomAccess {
        private final InstanceType[] types;

        Shared(List<InstanceType> types) {
            this.types = types.toArray(new InstanceType[0]);
        }

        @Override
        public InstanceType get(int index) {
            return types[index];
        }

        @Override
        public int size() {
            return types.length;
        }
    }

    /** A fit's inputs: the options list (by identity), the claim's requirements, the ones it would take, the requests. */
    private record FitKey(List<InstanceType> from, Requirements requirements, Requirements to, Resources total) {
        @Override
        public boolean equals(Object o) {
            return o instanceof FitKey k && k.from == from && k.requirements.equals(requirements) && k.to.equals(to) && k.total.equals(total);
        }

        @Override
        public int hashCode() {
            return ((System.identityHashCode(from) * 31 + requirements.hashCode()) * 31 + to.hashCode()) * 31 + total.hashCode();
        }
    }

    private record SizeKey(Requirements requirements, Resources requests) {
    }

    private final Map<FitKey, ClaimFit> fits = bounded();
    private final Map<SizeKey, List<InstanceType>> rightSized = bounded();

    private static <K, V> Map<K, V> bounded() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > MAX;
            }
        };
    }

    /** Whether the claim's next fit depends only on what {@link #fit} keys it by. */
    static boolean applies(Claim claim, List<HostPort> wanted) {
        return (claim.options == claim.pool.types || claim.options instanceof Shared) && wanted.isEmpty() && !claim.pool.hasLimits();
    }

    /**
     * The claim's fit to {@code to} holding {@code total}, worked out by {@code fit} unless kept; only successes are
     * kept, with a new options list made {@link Shared}.
     */
    ClaimFit fit(Claim claim, Requirements to, Resources total, Supplier<ClaimFit> fit) {
        FitKey key = new FitKey(claim.options, claim.requirements, to, total);
        ClaimFit known = fits.get(key);
        if (known != null) {
            return known;
        }
        ClaimFit out = fit.get();
        if (!out.ok()) {
            return out;
        }
        if (out.options() != claim.options && !(out.options() instanceof Shared)) {
            out = ClaimFit.fits(out.requirements(), new Shared(out.options()), out.maxRoom(), out.rooms());
        }
        fits.put(key, out);
        return out;
    }

    /** The options {@link Claim#rightSize} would build for these requirements and requests (without pool limits). */
    List<InstanceType> rightSized(Requirements requirements, Resources requests, Supplier<List<InstanceType>> build) {
        SizeKey key = new SizeKey(requirements, requests);
        List<InstanceType> known = rightSized.get(key);
        if (known == null) {
            List<InstanceType> built = build.get();
            known = built.isEmpty() ? built : new Shared(built);
            rightSized.put(key, known);
        }
        return known;
    }
}
