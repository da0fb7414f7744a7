package dev.gantry.core.requirements;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The values one label key may take, closed under intersection: the algebra behind node selector requirements.
 *
 * <p>A set is either finite ({@code In}) or the complement of a finite set ({@code NotIn}, {@code Exists}), optionally
 * bounded by exclusive integer bounds ({@code Gt}, {@code Lt}). Separately it records whether a node <em>without</em>
 * the label is acceptable: Kubernetes lets {@code NotIn} and {@code DoesNotExist} match an absent label, while
 * {@code In}, {@code Exists}, {@code Gt} and {@code Lt} require it. A set is empty when it admits no value and
 * does not admit absence; two requirements are compatible exactly when their intersection is not empty.
 *
 * <p>Canonical form: finite sets carry no bounds (they are applied eagerly); a bounded complement whose integer range
 * is small is enumerated into a finite set, so emptiness is always decided exactly.
 */
public record ValueSet(boolean complement, SortedSet<String> values, Long greaterThan, Long lessThan,
                       boolean absentAllowed, Integer minValues) {

    private static final int ENUMERATE_LIMIT = 4096;

    /** Everything, including absence: what an unconstrained key means. */
    public static final ValueSet ANY = new ValueSet(true, new TreeSet<>(), null, null, true, null);

    public ValueSet {
        values = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(values));
    }

    public static ValueSet in(Collection<String> values) {
        return new ValueSet(false, new TreeSet<>(values), null, null, false, null);
    }

    public static ValueSet in(String... values) {
        return in(List.of(values));
    }

    /** The set a {@link Requirement} describes (minValues carried along). */
    public static ValueSet of(Requirement r) {
        ValueSet s = switch (r.operator()) {
            case In -> in(r.values());
            case NotIn -> new ValueSet(true, new TreeSet<>(r.values()), null, null, true, null);
            case Exists -> new ValueSet(true, new TreeSet<>(), null, null, false, null);
            case DoesNotExist -> new ValueSet(false, new TreeSet<>(), null, null, true, null);
            case Gt -> bounded(Long.parseLong(r.values().get(0)), null);
            // Saturating: Gte MIN_VALUE and Lte MAX_VALUE cannot be written as Gt/Lt; they lose the one extreme value
            // instead of wrapping around to an empty range.
            case Gte -> bounded(Math.max(Long.parseLong(r.values().get(0)), Long.MIN_VALUE + 1) - 1, null);
            case Lt -> bounded(null, Long.parseLong(r.values().get(0)));
            case Lte -> bounded(null, Math.min(Long.parseLong(r.values().get(0)), Long.MAX_VALUE - 1) + 1);
        };
        return r.minValues() == null ? s : s.withMinValues(r.minValues());
    }

    private static ValueSet bounded(Long gt, Long lt) {
        return normalize(new ValueSet(true, new TreeSet<>(), gt, lt, false, null));
    }

    public ValueSet withMinValues(Integer min) {
        return new ValueSet(complement, values, greaterThan, lessThan, absentAllowed, min);
    }

    /** Whether a node whose label has this value satisfies the set. */
    public boolean has(String value) {
        if (value == null) {
            return absentAllowed;
        }
        if (complement) {
            return !values.contains(value) && withinBounds(value);
        }
        return values.contains(value);
    }

    private boolean withinBounds(String value) {
        if (greaterThan == null && lessThan == null) {
            return true;
        }
        long v;
        try {
            v = Long.parseLong(value);
        } catch (NumberFormatException e) {
            return false;
        }
        return (greaterThan == null || v > greaterThan) && (lessThan == null || v < lessThan);
    }

    /** The values that both sets admit, absence included only if both admit it; minValues is the larger. */
    public ValueSet intersect(ValueSet o) {
        boolean absent = absentAllowed && o.absentAllowed;
        // Spelled out: a nested ?: mixing Integer and int unboxes a null minValues and throws.
        Integer min;
        if (minValues == null) {
            min = o.minValues;
        } else if (o.minValues == null) {
            min = minValues;
        } else {
            min = Math.max(minValues, o.minValues);
        }
        ValueSet r;
        if (!complement && !o.complement) {
            TreeSet<String> v = new TreeSet<>(values);
            v.retainAll(o.values);
            r = new ValueSet(false, v, null, null, absent, min);
        } else if (complement && o.complement) {
            TreeSet<String> v = new TreeSet<>(values);
            v.addAll(o.values);
            r = new ValueSet(true, v, maxOrNull(greaterThan, o.greaterThan), minOrNull(lessThan, o.lessThan), absent, min);
        } else {
            ValueSet fin = complement ? o : this;
            ValueSet comp = complement ? this : o;
            TreeSet<String> v = new TreeSet<>();
            for (String s : fin.values) {
                if (comp.has(s)) {
                    v.add(s);
                }
            }
            r = new ValueSet(false, v, null, null, absent, min);
        }
        return normalize(r);
    }

    /**
     * Whether some label value, or absence, satisfies both sets: exactly {@code !intersect(o).isEmpty()}, decided without
     * building the intersection. {@link Requirements#compatible} asks this of every key an instance type and a pool or
     * pod share, for every type of the catalogue, on every solve; building the set there was a fifth of a simulated
     * day's CPU.
     */
    public boolean intersects(ValueSet o) {
        if (absentAllowed && o.absentAllowed) {
            return true;
        }
        if (!complement && !o.complement) {
            SortedSet<String> small = values.size() <= o.values.size() ? values : o.values;
            SortedSet<String> large = small == values ? o.values : values;
            for (String v : small) {
                if (large.contains(v)) {
                    return true;
                }
            }
            return false;
        }
        if (complement != o.complement) {
            ValueSet fin = complement ? o : this;
            ValueSet comp = complement ? this : o;
            for (String v : fin.values) {
                if (comp.has(v)) {
                    return true;
                }
            }
            return false;
        }
        // Both complements: every value outside both exclusions and within both bounds.
        Long gt = maxOrNull(greaterThan, o.greaterThan);
        Long lt = minOrNull(lessThan, o.lessThan);
        if (gt == null && lt == null) {
            return true; // infinitely many strings, finitely many excluded
        }
        if (Objects.equals(gt, Long.MAX_VALUE) || Objects.equals(lt, Long.MIN_VALUE)) {
            return false;
        }
        if (gt == null || lt == null) {
            return true; // an unbounded integer range
        }
        if (lt <= gt) {
            return false;
        }
        long span;
        try {
            span = Math.subtractExact(lt, gt) - 1;
        } catch (ArithmeticException wider) {
            return true;
        }
        if (span > (long) values.size() + o.values.size()) {
            return true; // more integers in range than values excluded
        }
        for (long i = gt + 1; i < lt; i++) {
            String v = Long.toString(i);
            if (!values.contains(v) && !o.values.contains(v)) {
                return true;
            }
        }
        return false;
    }

    private static ValueSet normalize(ValueSet s) {
        if (s.complement && (s.greaterThan != null || s.lessThan != null)) {
            // Excluded values outside the bounds are redundant; dropping them keeps one form per set.
            TreeSet<String> kept = new TreeSet<>();
            for (String v : s.values) {
                if (s.withinBounds(v)) {
                    kept.add(v);
                }
            }
            if (kept.size() != s.values.size()) {
                s = new ValueSet(true, kept, s.greaterThan, s.lessThan, s.absentAllowed, s.minValues);
            }
        }
        if (s.complement && (Objects.equals(s.greaterThan, Long.MAX_VALUE) || Objects.equals(s.lessThan, Long.MIN_VALUE))) {
            // No long lies beyond the extremes, so the bounded set admits no value at all.
            return new ValueSet(false, new TreeSet<>(), null, null, s.absentAllowed, s.minValues);
        }
        if (!s.complement || s.greaterThan == null || s.lessThan == null) {
            return s;
        }
        if (s.lessThan > s.greaterThan) {
            // Exact: for bounds far apart (Gt -5e18, Lt 5e18) a plain subtraction wraps negative and we would enumerate forever.
            long span;
            try {
                span = Math.subtractExact(s.lessThan, s.greaterThan) - 1;
            } catch (ArithmeticException wider) {
                return s;
            }
            if (span > ENUMERATE_LIMIT + s.values.size()) {
                return s; // more integers in range than excluded values: certainly not empty
            }
        }
        TreeSet<String> v = new TreeSet<>();
        for (long i = s.greaterThan + 1; i < s.lessThan; i++) {
            String str = Long.toString(i);
            if (!s.values.contains(str)) {
                v.add(str);
            }
        }
        return new ValueSet(false, v, null, null, s.absentAllowed, s.minValues);
    }

    private static Long maxOrNull(Long a, Long b) {
        return a == null ? b : b == null ? a : Long.valueOf(Math.max(a, b));
    }

    private static Long minOrNull(Long a, Long b) {
        return a == null ? b : b == null ? a : Long.valueOf(Math.min(a, b));
    }

    /** No label value and no absence satisfies this set. */
    public boolean isEmpty() {
        return !absentAllowed && !complement && values.isEmpty();
    }

    /** True for a finite set of label values (In, or DoesNotExist when empty). */
    public boolean isFinite() {
        return !complement;
    }

    /** The single value of a one-valued finite set, or null: the label a node launched under it would carry. */
    public String singleValue() {
        return !complement && values.size() == 1 ? values.first() : null;
    }

    /** Whether values outside {@code universe} would matter: for a finite set, its values; for a complement, all others. */
    public Set<String> filter(Collection<String> universe) {
        TreeSet<String> out = new TreeSet<>();
        for (String s : universe) {
            if (has(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /** The operator that best describes this set when it is shown to a person. */
    public Operator operator() {
        if (!complement) {
            return values.isEmpty() ? Operator.DoesNotExist : Operator.In;
        }
        if (greaterThan != null && values.isEmpty() && lessThan == null) {
            return Operator.Gt;
        }
        if (lessThan != null && values.isEmpty() && greaterThan == null) {
            return Operator.Lt;
        }
        return values.isEmpty() ? Operator.Exists : Operator.NotIn;
    }

    /** The requirement(s) that express this set for a key; bounded complements may need several. */
    public List<Requirement> toRequirements(String key) {
        List<Requirement> out = new java.util.ArrayList<>();
        if (!complement) {
            if (values.isEmpty()) {
                out.add(new Requirement(key, Operator.DoesNotExist, List.of(), null));
                if (!absentAllowed) {
                    // The empty set: nothing expresses it alone, but DoesNotExist together with Exists admits nothing.
                    out.add(new Requirement(key, Operator.Exists, List.of(), null));
                }
            } else {
                out.add(new Requirement(key, Operator.In, List.copyOf(values), minValues));
            }
            return out;
        }
        if (!values.isEmpty()) {
            out.add(new Requirement(key, Operator.NotIn, List.copyOf(values), minValues));
        }
        if (greaterThan != null) {
            out.add(new Requirement(key, Operator.Gt, List.of(Long.toString(greaterThan)), null));
        }
        if (lessThan != null) {
            out.add(new Requirement(key, Operator.Lt, List.of(Long.toString(lessThan)), null));
        }
        // NotIn alone would admit a node without the label; Gt and Lt already require it.
        if (!absentAllowed && greaterThan == null && lessThan == null) {
            out.add(new Requirement(key, Operator.Exists, List.of(), values.isEmpty() ? minValues : null));
        }
        return out;
    }

    /** Short human form: {@code In [a, b]}, {@code NotIn [x]}, {@code Gt 4}, {@code Exists}. */
    public String describe() {
        if (!complement) {
            return values.isEmpty() ? (absentAllowed ? "DoesNotExist" : "nothing") : "In " + values;
        }
        StringBuilder b = new StringBuilder();
        if (!values.isEmpty()) b.append("NotIn ").append(values);
        if (greaterThan != null) b.append(b.isEmpty() ? "" : ", ").append("Gt ").append(greaterThan);
        if (lessThan != null) b.append(b.isEmpty() ? "" : ", ").append("Lt ").append(lessThan);
        if (b.isEmpty()) b.append(absentAllowed ? "any" : "Exists");
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ValueSet s && complement == s.complement && values.equals(s.values)
                && Objects.equals(greaterThan, s.greaterThan) && Objects.equals(lessThan, s.lessThan)
                && absentAllowed == s.absentAllowed && Objects.equals(minValues, s.minValues);
    }

    @Override
    public int hashCode() {
        return Objects.hash(complement, values, greaterThan, lessThan, absentAllowed, minValues);
    }
}
