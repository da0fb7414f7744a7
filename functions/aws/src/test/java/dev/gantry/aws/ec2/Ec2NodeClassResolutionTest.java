package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.status.NodeClassStatus;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.MutableClock;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link Ec2CloudProvider#resolve}: an EC2NodeClass's status from the resolvers launches use, against the EC2 stub. */
class Ec2NodeClassResolutionTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2025-06-01T00:00:00Z"));
    private AwsStub stub;
    private StubClients clients;
    private Ec2CloudProvider provider;

    @BeforeEach
    void start() {
        stub = AwsStub.start(Ec2State.withDefaults(), clock);
        clients = StubClients.of(stub);
        provider = new Ec2CloudProvider(clients.ec2(), clients.ssm(), LaunchFixtures.config(clock));
    }

    @AfterEach
    void stop() {
        clients.close();
        stub.close();
    }

    @Test
    void resolvesTheSubnetsSecurityGroupsAmisAndInstanceProfileALaunchWouldUse() {
        NodeClassStatus s = provider.status(LaunchFixtures.al2023());

        assertThat(s.subnets()).extracting(NodeClassStatus.Subnet::id)
                .containsExactly("subnet-0000000000000000a", "subnet-0000000000000000b", "subnet-0000000000000000c");
        assertThat(s.subnets()).extracting(NodeClassStatus.Subnet::zone).containsExactly("us-east-1a", "us-east-1b", "us-east-1c");
        assertThat(s.securityGroups()).isNotEmpty();
        assertThat(s.amis()).isNotEmpty().allSatisfy(a -> {
            assertThat(a.id()).startsWith("ami-");
            assertThat(a.requirements()).singleElement().satisfies(r -> assertThat(r.key()).isEqualTo("kubernetes.io/arch"));
        });
        assertThat(s.instanceProfile()).isNotBlank();
        assertThat(s.conditions()).isEmpty();
    }
}
