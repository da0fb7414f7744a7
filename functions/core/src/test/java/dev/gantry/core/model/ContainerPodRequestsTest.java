package dev.gantry.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** kube-scheduler's effective pod request: max(largest init step, apps + sidecars) + overhead. */
class ContainerPodRequestsTest {
    private static final long MI = 1L << 20;

    private static Container app(String cpu, String memory) {
        return new Container("app", Map.of("cpu", Quantity.parse(cpu), "memory", Quantity.parse(memory)), null, false, null);
    }

    private static Container init(String cpu, String memory) {
        return new Container("init", Map.of("cpu", Quantity.parse(cpu), "memory", Quantity.parse(memory)), null, false, null);
    }

    private static Container sidecar(String cpu, String memory) {
        return new Container("sidecar", Map.of("cpu", Quantity.parse(cpu), "memory", Quantity.parse(memory)), null, true, null);
    }

    @Test
    void sumsTheAppContainers() {
        Resources r = Container.podRequests(List.of(), List.of(app("250m", "64Mi"), app("500m", "128Mi")), null);
        assertThat(r).isEqualTo(Resources.of(750, 192 * MI));
    }

    @Test
    void aLargerInitContainerSetsTheRequestPerResource() {
        // The init container dominates cpu, the apps dominate memory: the maximum is taken per resource.
        Resources r = Container.podRequests(List.of(init("2", "64Mi")), List.of(app("500m", "256Mi"), app("500m", "256Mi")), null);
        assertThat(r).isEqualTo(Resources.of(2000, 512 * MI));
    }

    @Test
    void initContainersRunOneAtATimeSoOnlyTheLargestCounts() {
        Resources r = Container.podRequests(List.of(init("1", "64Mi"), init("3", "64Mi")), List.of(app("100m", "64Mi")), null);
        assertThat(r.cpuMillis()).isEqualTo(3000);
    }

    @Test
    void sidecarsRunAlongsideTheAppsAndTheLaterInitContainers() {
        // sidecar 100m, then init 500m (runs with the sidecar: 600m), then apps 200m with the sidecar (300m).
        Resources r = Container.podRequests(List.of(sidecar("100m", "10Mi"), init("500m", "10Mi")), List.of(app("200m", "10Mi")), null);
        assertThat(r).isEqualTo(Resources.of(600, 20 * MI));
    }

    @Test
    void aSidecarStartedAfterAnInitContainerDoesNotAddToIt() {
        Resources r = Container.podRequests(List.of(init("500m", "10Mi"), sidecar("100m", "10Mi")), List.of(app("200m", "10Mi")), null);
        assertThat(r).isEqualTo(Resources.of(500, 20 * MI));
    }

    @Test
    void sidecarsAccumulate() {
        Resources r = Container.podRequests(List.of(sidecar("1", "1Mi"), sidecar("1", "1Mi"), init("1", "1Mi")),
                List.of(app("1", "1Mi")), null);
        assertThat(r).isEqualTo(Resources.of(3000, 3 * MI));
    }

    @Test
    void addsThePodOverheadOnTop() {
        Resources r = Container.podRequests(List.of(init("2", "1Mi")), List.of(app("1", "1Mi")), Resources.of(250, 120 * MI));
        assertThat(r).isEqualTo(Resources.of(2250, 121 * MI));
    }

    @Test
    void aLimitWithoutARequestBecomesTheRequest() {
        Container c = new Container("c", Map.of("memory", Quantity.parse("64Mi")),
                Map.of("cpu", Quantity.parse("1"), "memory", Quantity.parse("1Gi"), "nvidia.com/gpu", Quantity.parse("1")), false, null);
        Resources r = c.effectiveRequests();
        assertThat(r.cpuMillis()).isEqualTo(1000);
        assertThat(r.memoryBytes()).isEqualTo(64 * MI); // the explicit request wins over the limit
        assertThat(r.get(Resources.NVIDIA_GPU)).isEqualTo(1);
    }

    @Test
    void aContainerWithNothingRequestsNothing() {
        Container c = new Container("c", null, null, false, null);
        assertThat(c.effectiveRequests().isZero()).isTrue();
        assertThat(c.hostPorts()).isEmpty();
        assertThat(Container.podRequests(List.of(), List.of(c), null).isZero()).isTrue();
    }
    private static Map<String, Quantity> q(String... kv) {
        Map<String, Quantity> m = new java.util.HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], Quantity.parse(kv[i + 1]));
        }
        return m;
    }

    @Test
    void podLevelRequestsReplaceTheContainerAggregateForTheResourcesTheySet() {
        Resources r = Container.podRequests(List.of(), List.of(app("500m", "1Gi"), app("500m", "1Gi")), null, q("cpu", "3"), Map.of());
        assertThat(r).isEqualTo(Resources.of(3000, 2048 * MI));
    }

    @Test
    void podLevelRequestsCoverInitContainersAndSidecarsToo() {
        Resources r = Container.podRequests(List.of(init("4", "64Mi"), sidecar("1", "64Mi")), List.of(app("1", "64Mi")), null,
                q("cpu", "1500m", "memory", "256Mi"), Map.of());
        assertThat(r).isEqualTo(Resources.of(1500, 256 * MI));
    }

    @Test
    void aPodLimitAloneDefaultsThePodRequestToTheLimitWhenNoContainerSetsThatResource() {
        Container bare = new Container("app", null, null, false, null);
        Resources r = Container.podRequests(List.of(), List.of(bare, bare), null, Map.of(), q("cpu", "2", "memory", "4Gi"));
        assertThat(r).isEqualTo(Resources.of(2000, 4096 * MI));
    }

    @Test
    void aPodLimitAloneKeepsTheContainerAggregateWhenAContainerRequestsThatResource() {
        // KEP-2837 example 6: one container requests 50Gi, the pod limit is 100Gi: the pod request is 50Gi.
        Container requesting = new Container("a", q("memory", "50Gi"), null, false, null);
        Container bare = new Container("b", null, null, false, null);
        Resources r = Container.podRequests(List.of(), List.of(requesting, bare), null, Map.of(), q("memory", "100Gi"));
        assertThat(r.memoryBytes()).isEqualTo(50L << 30);
    }

    @Test
    void aContainerLimitCountsAsItsRequestWhenThePodOnlySetsALimit() {
        Container limited = new Container("a", null, q("cpu", "1"), false, null);
        Resources r = Container.podRequests(List.of(), List.of(limited), null, Map.of(), q("cpu", "4"));
        assertThat(r.cpuMillis()).isEqualTo(1000);
    }

    @Test
    void podLevelResourcesLeaveOtherResourcesToTheContainers() {
        Container gpu = new Container("a", q("cpu", "1", "ephemeral-storage", "1Gi", "nvidia.com/gpu", "1"), null, false, null);
        Resources r = Container.podRequests(List.of(), List.of(gpu), null, q("cpu", "2", "nvidia.com/gpu", "4"), Map.of());
        assertThat(r.cpuMillis()).isEqualTo(2000);
        assertThat(r.ephemeralBytes()).isEqualTo(1L << 30);
        assertThat(r.get("nvidia.com/gpu")).isEqualTo(1);
    }

    @Test
    void thePodOverheadIsAddedToPodLevelRequests() {
        Resources r = Container.podRequests(List.of(), List.of(app("100m", "64Mi")), Resources.of(250, 0), q("cpu", "1"), Map.of());
        assertThat(r.cpuMillis()).isEqualTo(1250);
    }
}
