package dev.gantry.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Host port conflicts as kube-scheduler's NodePorts filter decides them. */
class HostPortTest {

    @Test
    void samePortAndProtocolOnAllAddressesConflict() {
        assertThat(new HostPort(80, null, null).conflictsWith(new HostPort(80, "TCP", "0.0.0.0"))).isTrue();
    }

    @Test
    void theProtocolDefaultsToTcpAndTheAddressToAll() {
        HostPort p = new HostPort(80, "", "");
        assertThat(p.protocol()).isEqualTo("TCP");
        assertThat(p.hostIP()).isEqualTo("0.0.0.0");
    }

    @Test
    void differentProtocolsDoNotConflict() {
        assertThat(new HostPort(53, "UDP", null).conflictsWith(new HostPort(53, "TCP", null))).isFalse();
    }

    @Test
    void differentPortsDoNotConflict() {
        assertThat(new HostPort(80, null, null).conflictsWith(new HostPort(81, null, null))).isFalse();
    }

    @Test
    void twoSpecificAddressesConflictOnlyWhenTheyAreTheSame() {
        assertThat(new HostPort(80, null, "10.0.0.1").conflictsWith(new HostPort(80, null, "10.0.0.2"))).isFalse();
        assertThat(new HostPort(80, null, "10.0.0.1").conflictsWith(new HostPort(80, null, "10.0.0.1"))).isTrue();
    }

    @Test
    void allAddressesConflictWithASpecificOneEitherWay() {
        assertThat(new HostPort(80, null, "0.0.0.0").conflictsWith(new HostPort(80, null, "10.0.0.1"))).isTrue();
        assertThat(new HostPort(80, null, "10.0.0.1").conflictsWith(new HostPort(80, null, null))).isTrue();
    }

    @Test
    void portZeroMeansNoHostPortAndNeverConflicts() {
        // Regression: two containers without a host port (0) were reported as conflicting.
        assertThat(new HostPort(0, null, null).conflictsWith(new HostPort(0, null, null))).isFalse();
    }
}
