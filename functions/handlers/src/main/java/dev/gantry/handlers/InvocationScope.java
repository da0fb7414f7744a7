package dev.gantry.handlers;

import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.lifecycle.NodeClaimStore;

/**
 * One function's reads within an invocation: its cluster ports ({@link InvocationReads}) and its claim store
 * ({@link InvocationClaims}) in one scope, where each whole list (pods, nodes, claims) is read at most once between
 * writes while a sweep runs in it ({@link #sweeps}). Every composition root builds a function's services over these two
 * and hands the sweep handler its scope through this class: the deployed one ({@link Composition}, one per function's
 * process) and the simulator's (one per simulated function), so a staleness the scope could bring (a list kept across a
 * write) shows in a simulation as it would deployed. Outside a sweep both go straight through, so the functions whose
 * handler never opens the scope (provisioner, interruption, termination) read as without it.
 */
public final class InvocationScope {
    private final InvocationReads cluster;
    private final InvocationClaims claims;

    private InvocationScope(InvocationReads cluster, InvocationClaims claims) {
        this.cluster = cluster;
        this.claims = claims;
    }

    /** {@code cluster}'s pods and nodes and {@code store}'s claims, in one scope. */
    public static <C extends ClusterReader & ClusterWriter> InvocationScope over(C cluster, NodeClaimStore store) {
        InvocationReads reads = new InvocationReads(cluster);
        return new InvocationScope(reads, reads.claims(store));
    }

    /** The cluster ports the function's services read and write through. */
    public InvocationReads cluster() {
        return cluster;
    }

    /** The claim store the function's services read and write through. */
    public InvocationClaims claims() {
        return claims;
    }

    /** {@code handler}, each of its sweeps run in this scope ({@link InvocationReads#during}); the scope's only opener. */
    public SweepHandler sweeps(SweepHandler handler) {
        return handler.within(cluster);
    }
}
