/**
 * Consolidation, decided (Karpenter v1.14's {@code pkg/controllers/disruption} rules, and Gantry's search on top).
 * {@link dev.gantry.core.disruption.consolidation.Consolidation#decide} takes a
 * {@link dev.gantry.core.disruption.consolidation.ConsolidationInput} (nodes with pods and claim facts, pools with
 * priced types, PDBs, time) and returns a {@link dev.gantry.core.disruption.consolidation.ConsolidationDecision}: at
 * most one {@link dev.gantry.core.disruption.consolidation.ConsolidationCommand} and a
 * {@link dev.gantry.core.disruption.consolidation.Verdict} for every managed node left alone.
 * <p>
 * Pieces: {@code Candidates} (who may be disrupted, and why not), {@code EvictionCost} (ordering and emptiness),
 * {@code Simulation} (re-placement through the scheduler, with a fast exact path for pods without topology),
 * {@code PriceRule} (worst launch price, spot pin, spot-to-spot), {@code Balanced} (k = 2), {@code MinSavings}
 * (churn guard), {@code KarpenterReference} (multi-node then single-node, as Karpenter) and {@code GantrySearch}
 * (multi-node, m-to-n re-packs over every candidate).
 * <p>
 * Not wired yet. Execution plan: the command is carried out by the termination flow, not here. (1) The sweep (or a
 * consolidation function on its own schedule, since one decision on 1,000 nodes takes about a second) calls
 * {@code decide} and persists the command with a 15 s validation deadline as a delayed SQS message (Karpenter's
 * {@code commandValidationDelay}). (2) When the message arrives, the handler re-reads the cluster, calls
 * {@code decide} again restricted to the command's nodes and aborts unless the same nodes still go for no more than
 * the planned price (pods churned, budgets changed). (3) It taints the nodes {@code karpenter.sh/disrupted:NoSchedule},
 * launches the replacements through the provisioner's launch path (claims marked {@code fromConsolidation}), waits
 * (re-queued messages) until they initialize, untainting and giving up on a launch failure or timeout, then
 * (4) hands each node to the termination queue with reason {@code underutilized}/{@code empty}, which drains with PDBs
 * and terminates. The store needs per claim: {@code lastPodEventAt} (set by the sweep when the node's pod set
 * changes), {@code fromConsolidation}, and the in-progress command (id, nodes, replacement claims, deadline) so a
 * retried handler resumes it; candidates of an in-progress command count as deleting for budgets.
 */
package dev.gantry.core.disruption.consolidation;
