package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The node roles a deployment can pass, as the stack writes them: its own role and profile, and {@code -c nodeRoles=}'s. */
class EnvironmentNodeRolesTest {
    @Test
    void theStacksOwnRoleAndTheNamedRolesEachWithItsProfile() {
        Environment env = Environment.of(Map.of(Environment.NODE_ROLE_NAME, "Gantry-demo-NodeRole1A2B",
                Environment.INSTANCE_PROFILE_NAME, "Gantry-demo-NodeInstanceProfile3C4D",
                Environment.NODE_ROLE_PROFILES, "KarpenterNodeRole-demo=Gantry-demo-Profile5E, gpu-nodes=Gantry-demo-Profile6F"));

        assertThat(env.nodeRoleProfiles()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "Gantry-demo-NodeRole1A2B", "Gantry-demo-NodeInstanceProfile3C4D",
                "KarpenterNodeRole-demo", "Gantry-demo-Profile5E", "gpu-nodes", "Gantry-demo-Profile6F"));
        assertThat(Environment.of(Map.of()).nodeRoleProfiles()).isEmpty();
    }

    @Test
    void aHandEditedEntryThatIsNotRoleEqualsProfileFailsNamingTheVariable() {
        Environment env = Environment.of(Map.of(Environment.NODE_ROLE_PROFILES, "KarpenterNodeRole-demo"));

        assertThatThrownBy(env::nodeRoleProfiles).isInstanceOf(IllegalStateException.class)
                .hasMessage("environment variable GANTRY_NODE_ROLE_PROFILES: 'KarpenterNodeRole-demo' is not "
                        + "role=instance-profile");
    }
}
