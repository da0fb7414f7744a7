package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.sweep.InstanceFacts;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.core.termination.TerminationService;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Gantry's own rule: a function's services read the cluster and the store through one {@link InvocationScope}, and the
 * sweep handler it is handed to runs each sweep in it, so a sweep reads each whole list once between writes; the
 * simulator's functions get theirs from the same class ({@code SimulatedComposition.Reads}).
 */
class InvocationScopeTest {
    final Clock clock = Clock.fixed(Instant.parse("2026-06-01T12:00:00Z"), ZoneOffset.UTC);
    final InvocationReadsTest.Counting cluster = new InvocationReadsTest.Counting(new InMemoryCluster());
    final InMemoryNodeClaimStore memory = new InMemoryNodeClaimStore();
    final AtomicInteger claimLists = new AtomicInteger();
    /** The store, counting whole lists. */
    final NodeClaimStore store = (NodeClaimStore) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {NodeClaimStore.class}, (proxy, method, args) -> {
                if (method.getName().equals("list")) {
                    claimLists.incrementAndGet();
                }
                try {
                    return method.invoke(memory, args);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                }
            });
    final CloudProvider cloud = new CloudProvider() {
        public LaunchResult launch(LaunchRequest r) { throw new UnsupportedOperationException(); }
        public void terminate(List<String> ids) { }
        public List<CloudInstance> listInstances() { return List.of(); }
        public Optional<CloudInstance> describe(String id) { return Optional.empty(); }
    };
    final InvocationScope scope = InvocationScope.over(cluster, store);
    /** A sweep's service over the scope's cluster and store, as a composition root builds it. */
    final SweepService service = new SweepService("demo", scope.cluster(), scope.cluster(), scope.claims(), cloud,
            new TerminationService(scope.cluster(), scope.cluster(), scope.claims(), cloud, (body, group, dedup, delay) -> { },
                    Map.of(), clock), (reason, pod, node, at) -> { }, Map.of(), type -> Optional.of(InstanceFacts.NONE), clock);

    @Test
    void theSweepHandlerItIsHandedToReadsEachListOncePerSweep() {
        SweepHandler handler = scope.sweeps(new SweepHandler(service, null, clock));

        handler.handleRequest(Map.of(), null);

        assertThat(cluster.nodes).isEqualTo(1);
        assertThat(cluster.pods).isEqualTo(1);
        assertThat(claimLists).hasValue(1);

        handler.handleRequest(Map.of(), null); // nothing is kept between invocations
        assertThat(cluster.nodes).isEqualTo(2);
        assertThat(claimLists).hasValue(2);
    }

    @Test
    void aSweepHandlerNotHandedTheScopeReadsThroughIt() {
        new SweepHandler(service, null, clock).handleRequest(Map.of(), null);

        assertThat(cluster.nodes).isGreaterThan(1);
        assertThat(claimLists.get()).isGreaterThan(1);
    }
}
