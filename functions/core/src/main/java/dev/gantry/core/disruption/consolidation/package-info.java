/**
 * Consolidation, decided (Karpenter v1.14's {@code pkg/controllers/disruption} rules, and Gantry's search on top).
 * {@link dev.gantry.core.disruption.consolidation.Consolidation#decide} takes a
 * {@link dev.gantry.core.disruption.consolidation.ConsolidationInput} (nodes with pods and claim facts, pools with
 * priced types, PDBs, time) and returns a {@link dev.gantry.core.disruption.consolidation.ConsolidationDecision}: at
 * most one {@link dev.gantry.core.disruption.consolidation.ConsolidationCommand} and a
 * {@link dev.gantry.core.disruption.consolidation.Verdict} for every managed node left alone.
 * <p>
 * Pieces: {@code Candidates} (who may be disrupted, and why not), {@code Simulation} (re-placement through the
 * scheduler, with a fast exact path for pods without topology; {@code disruption.EvictionCost} orders the pods),
 * {@code PriceRule} (worst launch price, spot pin, spot-to-spot), {@code Balanced} (k = 2), {@code MinSavings}
 * (churn guard), {@code KarpenterReference} (multi-node then single-node, as Karpenter) and {@code GantrySearch}
 * (multi-node, m-to-n re-packs over every candidate).
 * <p>
 * Carried out by {@code disruption.execution}'s {@code ConsolidationService}: the sweep decides (one command
 * at a time), a 15 s delayed termination-queue message validates it (decided again on its own nodes), the candidates
 * are tainted {@code karpenter.sh/disrupted:NoSchedule}, replacements are recorded for the provisioner to launch, and
 * once they initialize the candidates go to the termination flow; the command lives on its claims
 * ({@link dev.gantry.core.lifecycle.ConsolidationMark}).
 */
package dev.gantry.core.disruption.consolidation;
