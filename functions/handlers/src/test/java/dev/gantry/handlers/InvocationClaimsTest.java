package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Gantry's own rule: within one sweep the store's whole list is read again only after a claim write could have changed it. */
class InvocationClaimsTest {
    static final Instant AT = Instant.parse("2026-06-01T12:00:00Z");
    final InMemoryNodeClaimStore memory = new InMemoryNodeClaimStore();
    final AtomicInteger lists = new AtomicInteger();
    /** The store, counting whole lists. */
    final NodeClaimStore counted = (NodeClaimStore) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {NodeClaimStore.class},
            (proxy, method, args) -> {
                if (method.getName().equals("list")) {
                    lists.incrementAndGet();
                }
                try {
                    return method.invoke(memory, args);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                }
            });
    final InvocationReads reads = new InvocationReads(new InMemoryCluster());
    final InvocationClaims claims = reads.claims(counted);

    static NodeClaim claim(String name) {
        return NodeClaim.launching(name, "default", "h", List.of(), List.of("m6i.large"), List.of(), "m6i.large", "us-east-1a",
                "on-demand", 0.096, AT);
    }

    @Test
    void listsTheStoreOnceBetweenClaimWritesWithinAnInvocation() {
        memory.create(claim("nc-a"));

        List<NodeClaim> last = reads.during(() -> {
            claims.list(AT);
            claims.list(AT.plusSeconds(5));
            return claims.list(AT.plusSeconds(9));
        });

        assertThat(lists).hasValue(1);
        assertThat(last).extracting(NodeClaim::name).containsExactly("nc-a");
    }

    @Test
    void aClaimWriteDropsTheListSoTheNextListSeesIt() {
        NodeClaim a = memory.create(claim("nc-a"));

        List<NodeClaim> last = reads.during(() -> {
            claims.list(AT);
            claims.update(a.launched("i-1", "m6i.large", "us-east-1a", "on-demand", 0.096, AT));
            claims.create(claim("nc-b"));
            return claims.list(AT);
        });

        assertThat(lists).hasValue(2);
        assertThat(last).extracting(NodeClaim::name).containsExactly("nc-a", "nc-b");
        assertThat(last.getFirst().instanceId()).isEqualTo("i-1");
    }

    @Test
    void aClaimThatExpiresBetweenTwoListsIsDroppedAsAFreshReadWouldDropIt() {
        NodeClaim a = memory.create(claim("nc-a"));
        memory.update(a.terminated(AT, Duration.ofMinutes(1)));

        List<List<NodeClaim>> both = reads.during(() -> List.of(claims.list(AT), claims.list(AT.plus(Duration.ofMinutes(2)))));

        assertThat(both.get(0)).hasSize(1);
        assertThat(both.get(1)).isEmpty();
        assertThat(lists).hasValue(1);
    }

    @Test
    void outsideAnInvocationAndAcrossInvocationsEveryListReadsTheStore() {
        claims.list(AT);
        claims.list(AT);
        reads.during(() -> claims.list(AT));
        reads.during(() -> claims.list(AT));

        assertThat(lists).hasValue(4);
    }

    @Test
    void eachCallGetsItsOwnCopy() {
        memory.create(claim("nc-a"));

        List<NodeClaim> second = reads.during(() -> {
            claims.list(AT).clear();
            return claims.list(AT);
        });

        assertThat(second).hasSize(1);
    }
}
