package dev.gantry.handlers.lifecycle.it;

import static dev.gantry.handlers.lifecycle.it.Scene.CLAIM;
import static dev.gantry.handlers.lifecycle.it.Scene.NODE;
import static dev.gantry.handlers.lifecycle.it.Scene.NS;
import static dev.gantry.handlers.lifecycle.it.Scene.POD;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.NodeClaimState;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A node-deleted hint reaches the provisioner function, which starts the termination flow for the node: it sends
 * the flow's first message to the termination queue itself, signed as the provisioner (so infra's IamContractTest
 * checks that the provisioner's role may send there).
 */
class DeletedNodeHintIntegrationTest {
    @RegisterExtension
    final LifecycleRig rig = new LifecycleRig();
    final Scene scene = new Scene(rig);

    @Test
    void theProvisionerStartsTheDrainOfANodeDeletedWithKubectlAndQueuesItsNextStep() {
        scene.ownedNode(CLAIM, NODE);
        scene.pod(POD, NODE, Map.of());
        rig.answerEviction(NS, POD, 201);
        rig.kube.nodes().withName(NODE).delete();

        assertThat(rig.provision("{\"reason\":\"node-deleted\",\"namespace\":\"\",\"name\":\"" + NODE
                + "\",\"uid\":\"uid-" + NODE + "\",\"at\":\"2025-06-01T12:00:00Z\"}").getBatchItemFailures()).isEmpty();

        assertThat(rig.claim(CLAIM).orElseThrow().state()).isEqualTo(NodeClaimState.Draining);
        assertThat(rig.evictionRequests()).containsExactly(NS + "/" + POD);
        assertThat(rig.iamCalls()).filteredOn(c -> c.principal().equals("provisioner"))
                .extracting(c -> c.call()).contains("sqs:SendMessage");
    }
}
