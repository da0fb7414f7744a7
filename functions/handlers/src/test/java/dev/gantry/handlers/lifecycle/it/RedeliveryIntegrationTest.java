package dev.gantry.handlers.lifecycle.it;

import static dev.gantry.handlers.lifecycle.it.Scene.CLAIM;
import static dev.gantry.handlers.lifecycle.it.Scene.NODE;
import static dev.gantry.handlers.lifecycle.it.Scene.NS;
import static dev.gantry.handlers.lifecycle.it.Scene.POD;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.testing.Ec2Responses;
import dev.gantry.testing.iam.IamCall;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The handlers' own ChangeMessageVisibility calls, made on the emulated queues as the functions make them: each
 * invocation holds its records only for its own time, and a record whose work failed (a throttled TerminateInstances)
 * comes back in seconds instead of after the queue's visibility timeout. Both are SQS calls signed as the function,
 * so infra's IamContractTest checks them against the function's role; without these paths it never saw them.
 */
class RedeliveryIntegrationTest {
    @RegisterExtension
    final LifecycleRig rig = new LifecycleRig();
    final Scene scene = new Scene(rig);

    private List<String> visibilityChangesBy(String function) {
        return rig.iamCalls().stream().filter(c -> c.principal().equals(function))
                .map(IamCall::call).filter(c -> c.equals("sqs:ChangeMessageVisibility")
                        || c.equals("sqs:ChangeMessageVisibilityBatch")).toList(); // the hold is one batch request
    }

    @Test
    void aThrottledLastSliceFailsAloneAndTheTerminationFunctionBringsItBackEarly() {
        String id = scene.ownedNode(CLAIM, NODE);
        scene.pod(POD, NODE, Map.of());
        rig.answerEviction(NS, POD, 201);
        assertThat(rig.deliver(InterruptionSamples.load("state-change-stopping", id)).getBatchItemFailures()).isEmpty();
        scene.evictionCompletes(POD);
        rig.aws.on("TerminateInstances", r -> Ec2Responses.error("RequestLimitExceeded", "Request limit exceeded."));

        SQSBatchResponse r = rig.continueTermination();

        assertThat(r.getBatchItemFailures()).hasSize(1);
        assertThat(rig.claim(CLAIM).orElseThrow().state()).isEqualTo(NodeClaimState.Draining);
        // One to hold the record for this invocation, one to bring the failed record back in 10 s.
        assertThat(visibilityChangesBy("termination")).hasSize(2);
        assertThat(rig.peek(rig.terminationQueue)).as("hidden for the retry delay, not deleted").isEmpty();
    }

    @Test
    void theInterruptionFunctionHoldsItsRecordsForItsInvocationAndBringsAFailedOneBackEarly() {
        String id = scene.ownedNode(CLAIM, NODE); // no pods: the first slice terminates the instance at once
        rig.aws.on("TerminateInstances", r -> Ec2Responses.error("RequestLimitExceeded", "Request limit exceeded."));

        SQSBatchResponse r = rig.deliver(InterruptionSamples.load("spot-interruption-warning", id));

        assertThat(r.getBatchItemFailures()).hasSize(1);
        assertThat(visibilityChangesBy("interruption")).hasSize(2);
    }

    private static final String HINT = "{\"reason\":\"pod-created\",\"namespace\":\"default\",\"name\":\"p0\","
            + "\"uid\":\"u0\",\"at\":\"2025-06-01T12:00:00Z\"}";

    @Test
    void theProvisionerHoldsItsBatchOnlyForItsInvocationBeforeTheRun() {
        SQSBatchResponse r = rig.provision(HINT);

        assertThat(r.getBatchItemFailures()).isEmpty();
        assertThat(visibilityChangesBy("provisioner")).hasSize(1);
    }

    @Test
    void aFailedProvisioningRunBringsItsHintBackEarlyInsteadOfHoldingTheGroupForSixMinutes() {
        // The API server fails the pod list twice (the client's one quick retry included): the run fails.
        for (int i = 0; i < 2; i++) {
            rig.server.expect().get().withPath("/api/v1/pods?limit=500").andReturn(500, "boom").once();
        }

        SQSBatchResponse r = rig.provision(HINT);

        assertThat(r.getBatchItemFailures()).hasSize(1);
        assertThat(visibilityChangesBy("provisioner")).as("the hold, then the 10 s retry").hasSize(2);
    }
}
