package dev.gantry.aws.ec2;

import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.MutableClock;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The EC2 launcher's tests against the AWS stub: before each test the stub with {@link #state()}, real SDK clients
 * signed as the provisioner ({@link StubClients}) and the launcher over them with {@link #config()}; all closed after.
 * A test class overrides the two hooks when it needs other EC2 state (images, instance types, instance profiles) or
 * other launcher settings.
 */
abstract class Ec2StubTest {
    protected final MutableClock clock = new MutableClock(Instant.parse("2025-06-01T00:00:00Z"));
    protected AwsStub stub;
    protected StubClients clients;
    protected Ec2CloudProvider provider;

    /** The EC2 the stub starts with: its defaults (subnets, security groups, images, instance types). */
    protected Ec2State state() {
        return Ec2State.withDefaults();
    }

    /** The launcher's settings: {@link LaunchFixtures#config}. */
    protected Ec2LauncherConfig config() {
        return LaunchFixtures.config(clock);
    }

    @BeforeEach
    final void startStub() {
        stub = AwsStub.start(state(), clock);
        clients = StubClients.of(stub);
        provider = new Ec2CloudProvider(clients.ec2(), clients.ssm(), config());
    }

    @AfterEach
    final void stopStub() {
        clients.close();
        stub.close();
    }
}
