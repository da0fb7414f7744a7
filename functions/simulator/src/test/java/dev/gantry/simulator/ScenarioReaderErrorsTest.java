package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.simulator.scenario.ScenarioException;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A mistake in any section of a scenario file is reported at its line with one exact message, and of two mistakes
 * the same one comes first whatever reader handles each section.
 */
class ScenarioReaderErrorsTest {
    @TempDir
    Path dir;

    /** Lines 1-3 are name, duration and config; {@code body} starts at line 4. */
    private Path write(String body) throws IOException {
        Path pool = Path.of("../../samples/nodepools/seed002-v1beta1.yaml").toAbsolutePath().normalize();
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, "name: s\nduration: 10m\nconfig: [" + pool + "]\n" + body);
        return f;
    }

    /** The body after the first three lines, and {@code line: message} ({@code DIR/}: the file's directory). */
    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("nmae: x\n", "4: unknown field 'nmae' (expected one of [cluster, config, consolidation, duration, events, faults, latency, learnWeeks, name, ramp, region, seed, start, webhook, zones])"),
                Arguments.of("webhook: maybe\n", "4: expected true or false, got 'maybe'"),
                Arguments.of("seed: x\n", "4: expected an integer, got 'x'"),
                Arguments.of("zones: us-east-1a\n", "4: expected a list"),
                Arguments.of("cluster: {manifests: [nowhere.yaml]}\n", "4: no such file: nowhere.yaml (resolved to DIR/nowhere.yaml)"),
                Arguments.of("cluster: {pods: []}\n", "4: unknown field 'cluster.pods' (expected one of [karpenter, manifests, reservations])"),
                Arguments.of("cluster:\n  karpenter:\n    - {nodePool: general, instanceType: m5.large}\n", "6: required field 'age' is missing"),
                Arguments.of("cluster:\n  karpenter:\n    - {nodePool: g, instanceType: m5.large, age: 1h, zone: eu-west-1a}\n", "6: cluster.karpenter.zone: 'eu-west-1a' is not one of the scenario's zones [us-east-1a, us-east-1b, us-east-1c]"),
                Arguments.of("cluster:\n  karpenter:\n    - {nodePool: g, instanceType: m5.large, age: 1h, pods: 3}\n", "6: unknown field 'cluster.karpenter.pods' (expected one of [age, capacityType, count, instanceType, nodePool, zone])"),
                Arguments.of("cluster:\n  reservations:\n    - {id: cr-1, instanceType: m5.large, count: 1}\n",
                        "6: cluster.reservations.id: 'cr-1' is not a capacity reservation id (cr- and 8 to 17 hex digits)"),
                Arguments.of("cluster:\n  reservations:\n    - {id: cr-0000000000000001, instanceType: m5.large}\n",
                        "6: required field 'count' is missing"),
                Arguments.of("cluster:\n  reservations:\n    - {id: cr-0000000000000001, instanceType: m5.large, count: 1, type: capacity-block}\n",
                        "6: cluster.reservations: a capacity-block needs endsAfter (when it ends)"),
                Arguments.of("cluster:\n  reservations:\n    - {id: cr-0000000000000001, instanceType: m5.large, count: 1, type: block}\n",
                        "6: cluster.reservations.type: is default or capacity-block, not 'block'"),
                Arguments.of("cluster:\n  reservations:\n    - {id: cr-0000000000000001, instanceType: m5.large, count: 1, size: 2}\n",
                        "6: unknown field 'cluster.reservations.size' (expected one of [count, endsAfter, id, instanceType, interruptible, matchCriteria, owner, tags, type, zone])"),
                Arguments.of("cluster:\n  reservations:\n    - {id: cr-0000000000000001, instanceType: m5.large, count: 1}\n"
                        + "events:\n  - {at: 1m, reservationInterruption: {reservation: cr-0000000000000001}}\n",
                        "8: reservationInterruption: 'cr-0000000000000001' is not an interruptible reservation of cluster.reservations"),
                Arguments.of("events:\n  - {at: 1m}\n", "5: an event needs one of [apply, scale, interrupt, awsEvent, deleteNode, terminateAllNodes, fault, delete, amiRelease, reservationInterruption, nodeCondition, statusCheck]"),
                Arguments.of("events:\n  - {at: 1m, delete: {deployment: default/web}, scale: {deployment: default/web, replicas: 1}}\n", "5: an event has one action, not [scale, delete]"),
                Arguments.of("events:\n  - {at: 11m, delete: {deployment: default/web}}\n", "5: event at 11m0s is after the end (10m0s)"),
                Arguments.of("events:\n  - {at: 1m, amiRelease: {family: al2023, version: v2, bad: true, crashLoop: true}}\n",
                        "5: amiRelease takes at most one of bad, crashLoop, deregistered"),
                Arguments.of("events:\n  - {at: 1m, scale: {deployment: default/web, replicas: -1}}\n", "5: replicas must not be negative"),
                Arguments.of("events:\n  - {at: 1m, delete: {deployment: web}}\n", "5: a deployment is written namespace/name, got 'web'"),
                Arguments.of("events:\n  - {at: 1m, apply: {apiVersion: apps/v1, kind: Deployment, metadata: {name: web}}}\n", "5: an inline apply takes a NodePool, EC2NodeClass or NodeOverlay, not Deployment (apply workloads from a file)"),
                Arguments.of("events:\n  - at: 1m\n    apply:\n      apiVersion: karpenter.sh/v1\n      kind: NodePool\n      metadata: {name: p}\n"
                        + "      spec:\n        template:\n          spec:\n            nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}\n"
                        + "            requirements:\n              - {key: karpenter.sh/capacity-type, operator: Inn, values: [spot]}\n",
                        "15: NodePool/p/spec.template.spec.requirements[0].operator: 'Inn' is not an operator (In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte), did you mean \"In\"?"),
                Arguments.of("events:\n  - {at: 1m, delete: {kind: Deployment, name: web}}\n", "5: delete takes a deployment, or a kind of [NodePool, EC2NodeClass, NodeOverlay], not Deployment"),
                Arguments.of("events:\n  - {at: 1m, delete: {kind: NodePool}}\n", "5: required field 'name' is missing"),
                Arguments.of("events:\n  - {at: 1m, interrupt: {kind: meteor}}\n", "5: kind must be spot, rebalance, health or failure, not 'meteor'"),
                Arguments.of("events:\n  - {at: 1m, interrupt: {kind: spot, warnAfter: 5m}}\n", "5: warnAfter follows a rebalance recommendation only, not kind 'spot'"),
                Arguments.of("events:\n  - {at: 1m, fault: {outage: {for: 1m}, ice: {for: 1m}}}\n", "5: a fault has one of ice, throttle, outage, apiServerDown, crashAfterLaunch"),
                Arguments.of("events:\n  - {at: 1m, fault: {throttle: {probability: 0.5, neighbour: 2, for: 1m}}}\n", "5: a throttle has one of probability (a share of calls refused) or neighbour (how many times each API's refill rate a noisy neighbour asks for)"),
                Arguments.of("events:\n  - {at: 1m, fault: {throttle: {probability: 1.5, for: 1m}}}\n", "5: probability must be between 0 and 1"),
                Arguments.of("events:\n  - {at: 1m, terminateAllNodes: false}\n", "5: terminateAllNodes takes true"),
                Arguments.of("events:\n  - {at: 1m, awsEvent: nowhere.json}\n", "5: no such file: nowhere.json (resolved to DIR/nowhere.json)"),
                Arguments.of("consolidation: {strategy: greedy}\n", "4: consolidation.strategy: is gantry or karpenter, not 'greedy'"),
                Arguments.of("consolidation: {spotToSpot: yes please}\n", "4: expected true or false, got 'yes please'"),
                Arguments.of("faults: {ice: 2}\n", "4: ice must be a probability between 0 and 1, got 2"),
                Arguments.of("faults:\n  at:\n    - {function: sweep, invocation: 0, call: 1}\n", "6: expected a positive integer (counting from 1), got 0"),
                Arguments.of("faults:\n  at:\n    - {function: sweep, invocation: 1, call: 1, fault: explode}\n", "6: fault must be one of [crash, hang, freeze, error], not 'explode'"),
                Arguments.of("faults: {apiOutageFor: soon}\n", "4: 'soon' is not a duration (like 90s, 10m, 2h)"),
                Arguments.of("latency: {scale: -1}\n", "4: scale must not be negative"),
                Arguments.of("latency: {createFleet: 1s..2s..3s}\n", "4: '1s..2s..3s' is not a latency (like 20ms, or 1s..2s)"),
                Arguments.of("latency: {createFleet: fast}\n", "4: 'fast' is not a duration (like 20ms, 1s)"),
                Arguments.of("start: Monday\n", "4: start must be a UTC instant such as 2025-06-02T00:00:00Z, not 'Monday'"),
                Arguments.of("ramp: {from: 9m, until: 11m}\n", "4: ramp must satisfy from < until <= duration"),
                Arguments.of("learnWeeks: 99\n", "4: learnWeeks must be 0 to 8"),
                Arguments.of("start: Monday\nfaults: {crash: 2}\n", "5: crash must be a probability between 0 and 1, got 2"),
                Arguments.of("start: Monday\nfaults: {crash: 2}\nevents:\n  - {at: 1m}\n", "7: an event needs one of [apply, scale, interrupt, awsEvent, deleteNode, terminateAllNodes, fault, delete, amiRelease, reservationInterruption, nodeCondition, statusCheck]"));
    }

    @ParameterizedTest
    @MethodSource("mistakes")
    void aMistakeIsReportedAtItsLineWithItsMessage(String body, String expected) throws IOException {
        Path f = write(body);
        assertThatThrownBy(() -> ScenarioReader.read(f)).isInstanceOf(ScenarioException.class)
                .hasToString(f + ":" + expected.replace("DIR/", dir.toString() + "/"));
    }
}
