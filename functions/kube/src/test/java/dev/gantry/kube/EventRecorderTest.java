package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Events through {@link KubeCluster#event}: repeats folded, bursts bounded, NodeClaims named as Karpenter's kind. */
class EventRecorderTest {
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-04-01T12:00:00Z"));
    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };
    private MockApi api;
    private KubeCluster cluster;

    @BeforeEach
    void start() {
        api = new MockApi();
        cluster = api.cluster(clock);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private List<Event> events(String namespace) {
        return api.client.v1().events().inNamespace(namespace).list().getItems();
    }

    @Test
    void theSameEventAgainSoonIsDroppedAndLaterCountedOnTheEventAlreadyWritten() {
        cluster.event("Pod", "shop", "web-1", "Warning", "FailedScheduling", "no NodePool fits");
        now.set(now.get().plusSeconds(30));
        cluster.event("Pod", "shop", "web-1", "Warning", "FailedScheduling", "no NodePool fits");
        assertThat(events("shop")).singleElement().satisfies(e -> assertThat(e.getCount()).isEqualTo(1));

        now.set(now.get().plus(EventRecorder.DEDUPE));
        cluster.event("Pod", "shop", "web-1", "Warning", "FailedScheduling", "no NodePool fits");

        assertThat(events("shop")).singleElement().satisfies(e -> {
            assertThat(e.getCount()).isEqualTo(2);
            assertThat(e.getLastTimestamp()).isEqualTo(now.get().toString());
        });
    }

    @Test
    void aThousandPodBurstWritesAtMostOneBurstOfNominatedEvents() {
        for (int i = 0; i < 1_000; i++) {
            cluster.event("Pod", "burst", "web-" + i, "Normal", "Nominated", "Pod should schedule on: nodeclaim/default-abc12");
        }
        assertThat(events("burst")).hasSize(EventRecorder.BURST);

        now.set(now.get().plus(Duration.ofSeconds(30)));
        for (int i = 1_000; i < 1_100; i++) {
            cluster.event("Pod", "burst", "web-" + i, "Normal", "Nominated", "Pod should schedule on: nodeclaim/default-abc12");
        }
        assertThat(events("burst")).as("half a minute refills half a burst").hasSize(EventRecorder.BURST + EventRecorder.BURST / 2);
    }

    @Test
    void aBurstOfOneReasonLeavesOtherReasonsTheirOwn() {
        for (int i = 0; i < 300; i++) {
            cluster.event("Pod", "mixed", "web-" + i, "Normal", "Nominated", "on nodeclaim/a");
        }
        cluster.event("Pod", "mixed", "web-0", "Warning", "FailedScheduling", "no NodePool fits");

        assertThat(events("mixed")).filteredOn(e -> e.getReason().equals("FailedScheduling")).hasSize(1);
    }

    @Test
    void anEventOnANodeClaimNamesKarpentersKindAndTheUidTheLastListSaw() {
        api.client.apiextensions().v1().customResourceDefinitions().resource(io.fabric8.kubernetes.client.utils.Serialization
                .unmarshal(dev.gantry.config.crd.KarpenterCrd.NODE_CLAIM.manifest(),
                        io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition.class)).create();
        api.client.genericKubernetesResources(KubeNodeClaims.NODE_CLAIMS).resource(io.fabric8.kubernetes.client.utils.Serialization
                .unmarshal("""
                        apiVersion: karpenter.sh/v1
                        kind: NodeClaim
                        metadata: {name: default-abc12}
                        spec:
                          nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                          requirements: []
                        """, io.fabric8.kubernetes.api.model.GenericKubernetesResource.class)).create();
        String uid = api.client.genericKubernetesResources(KubeNodeClaims.NODE_CLAIMS).withName("default-abc12").get()
                .getMetadata().getUid();
        cluster.nodeClaimObjects().list();

        cluster.event("NodeClaim", null, "default-abc12", "Normal", "DisruptionLaunching", "Launching NodeClaim: Underutilized");

        assertThat(events("default")).singleElement().satisfies(e -> {
            assertThat(e.getInvolvedObject().getApiVersion()).isEqualTo("karpenter.sh/v1");
            assertThat(e.getInvolvedObject().getKind()).isEqualTo("NodeClaim");
            assertThat(e.getInvolvedObject().getUid()).isEqualTo(uid);
        });
    }
}
