package dev.gantry.simulator.scenario;

import java.time.Duration;

/**
 * {@code cluster: {karpenter: [...]}}: nodes a running Karpenter launched before the run, found by Gantry at its
 * start (Karpenter's controller scaled to 0, Gantry deployed, nothing in its table): {@code count} instances of
 * {@code instanceType} for {@code nodePool} in {@code zone}, launched {@code age} before the run starts (so that
 * {@code expireAfter} counts from then).
 *
 * @param line the scenario line, for messages
 */
public record KarpenterNodes(String nodePool, String instanceType, String zone, String capacityType, Duration age, int count,
                             int line) {
}
