package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** EKS puts kube-dns at the tenth address of the service CIDR, IPv4 or IPv6. */
class ServiceCidrTest {
    @Test
    void theTenthAddressOfIpv4AndIpv6Cidrs() {
        assertThat(ServiceCidr.tenthAddress("10.100.0.0/16")).isEqualTo("10.100.0.10");
        assertThat(ServiceCidr.tenthAddress("172.20.0.0/16")).isEqualTo("172.20.0.10");
        assertThat(ServiceCidr.tenthAddress("10.0.0.250/31")).isEqualTo("10.0.1.4");
        assertThat(ServiceCidr.tenthAddress("fd30:1c53:5f8a::/108")).isEqualTo("fd30:1c53:5f8a::a");
        assertThat(ServiceCidr.tenthAddress("fd00::/108")).isEqualTo("fd00::a");
        assertThat(ServiceCidr.tenthAddress("fd00:1:2:3:4:5:6:0/112")).isEqualTo("fd00:1:2:3:4:5:6:a");
        assertThat(ServiceCidr.tenthAddress("fd00:0:0:1::/108")).isEqualTo("fd00:0:0:1::a");
    }

    @Test
    void somethingElseIsRefused() {
        assertThatThrownBy(() -> ServiceCidr.tenthAddress("example.com/16")).isInstanceOf(IllegalArgumentException.class);
    }
}
