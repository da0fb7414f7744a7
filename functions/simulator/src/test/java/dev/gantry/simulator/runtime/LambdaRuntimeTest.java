package dev.gantry.simulator.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LambdaRuntimeTest {
    private static final Instant T0 = Instant.parse("2025-06-01T00:00:00Z");
    private final VirtualClock clock = new VirtualClock(T0);
    private final EventLoop loop = new EventLoop(clock);
    private final List<String> trace = new ArrayList<>();

    /** Every call of every kind costs exactly {@code ms}. */
    private static Latency fixed(long ms) {
        Map<CallKind, Latency.Range> m = new java.util.EnumMap<>(CallKind.class);
        for (CallKind k : CallKind.values()) {
            m.put(k, new Latency.Range(Duration.ofMillis(ms), Duration.ofMillis(ms)));
        }
        return Latency.of(m, 1, 1);
    }

    private long ms() {
        return Duration.between(T0, clock.instant()).toMillis();
    }

    private void run() {
        loop.runUntil(T0.plus(Duration.ofMinutes(5)), step -> { });
    }

    /**
     * Regression (#21): the provisioner's lease renewals ran on the loop at no cost and drew no fault. A heartbeat is
     * now a thread of the invocation: its calls cost their latency, beats start at a fixed rate, and stopping it waits
     * for the beat under way.
     */
    @Test
    void aHeartbeatsCallsCostTheirLatencyBeatsKeepAFixedRateAndStoppingWaitsForTheBeatUnderWay() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(3_000));
        List<String> seen = new ArrayList<>();
        loop.at(T0, "start", () -> rt.start("f", Duration.ofSeconds(60), inv -> {
            Runnable stop = rt.beat(Duration.ofSeconds(7), () -> {
                seen.add("beat at " + ms());
                rt.call(CallKind.SQS_CHANGE_VISIBILITY, () -> { });
                seen.add("renewed at " + ms());
            });
            rt.sleep(Duration.ofSeconds(15)); // the run works; the second beat's call is under way at 15 s
            stop.run();
            seen.add("stopped at " + ms());
            return "ok";
        }, (inv, o) -> trace.add("end " + o.result() + " at " + ms())));
        run();
        assertThat(seen).containsExactly("beat at 7000", "renewed at 10000", "beat at 14000", "renewed at 17000",
                "stopped at 17000");
        assertThat(trace).containsExactly("end ok at 17000");
    }

    @Test
    void aCrashAtAHeartbeatsCallKillsTheInvocation() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(100));
        rt.faults((inv, kind) -> kind == CallKind.SQS_CHANGE_VISIBILITY ? CallFaults.Decision.CRASH : CallFaults.Decision.NONE);
        loop.at(T0, "start", () -> rt.start("f", Duration.ofSeconds(60), inv -> {
            Runnable stop = rt.beat(Duration.ofSeconds(7), () -> rt.call(CallKind.SQS_CHANGE_VISIBILITY, () -> { }));
            rt.sleep(Duration.ofSeconds(20));
            stop.run();
            return "ok";
        }, (inv, o) -> trace.add((o.killed() ? "killed" : "end") + " at " + ms())));
        run();
        assertThat(trace).containsExactly("killed at 7000");
    }

    @Test
    void eachPortCallCostsItsLatencyAndTheHandlerSeesTimePass() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(100));
        List<Long> seen = new ArrayList<>();
        loop.at(T0, "start", () -> rt.start("f", Duration.ofSeconds(60), inv -> {
            rt.call(CallKind.KUBE_GET, () -> seen.add(ms()));
            rt.call(CallKind.KUBE_GET, () -> seen.add(ms()));
            seen.add(ms());
            return "ok";
        }, (inv, o) -> trace.add("end " + o.result() + " at " + ms())));
        run();
        assertThat(seen).containsExactly(0L, 100L, 200L);
        assertThat(trace).containsExactly("end ok at 200");
        assertThat(rt.stats().get("f").longest).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void aFanOutOnEightLanesRunsItsCallsSideBySideEachAtFullLatencyAndKeepsItsResultsInOrder() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(800));
        List<Long> seen = new ArrayList<>();
        List<List<Integer>> results = new ArrayList<>();
        loop.at(T0, "start", () -> rt.start("f", Duration.ofSeconds(60), inv -> {
            List<Integer> items = java.util.stream.IntStream.range(0, 17).boxed().toList();
            results.add(rt.fanOut(items, 8, i -> {
                rt.call(CallKind.CREATE_FLEET, () -> seen.add(ms()));
                return i * 10;
            }));
            rt.call(CallKind.KUBE_GET, () -> seen.add(ms()));
            return "ok";
        }, (inv, o) -> trace.add("end at " + ms())));
        run();
        // Seventeen 800 ms launches on eight lanes: eight at 0, eight at 800, the last at 1600; it ends at 2400.
        assertThat(seen.subList(0, 8)).containsOnly(0L);
        assertThat(seen.subList(8, 16)).containsOnly(800L);
        assertThat(seen.get(16)).isEqualTo(1600L);
        assertThat(seen.get(17)).as("the handler goes on when the last lane is done").isEqualTo(2400L);
        assertThat(results.getFirst()).containsExactly(0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160);
        assertThat(trace).containsExactly("end at 3200");
    }

    @Test
    void aFanOutRunsEveryTaskEvenWhenOneFailsThenRethrowsTheFirstFailure() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(100));
        List<String> outcome = new ArrayList<>();
        loop.at(T0, "start", () -> rt.start("f", Duration.ofSeconds(60), inv -> {
            try {
                rt.fanOut(List.of(1, 2, 3, 4), 2, i -> {
                    rt.call(CallKind.CREATE_FLEET, () -> trace.add("launch " + i));
                    if (i == 2) {
                        throw new IllegalStateException("throttled " + i);
                    }
                    return i;
                });
            } catch (IllegalStateException e) {
                outcome.add(e.getMessage() + " at " + ms());
            }
            return null;
        }, (inv, o) -> { }));
        run();
        assertThat(trace).containsExactlyInAnyOrder("launch 1", "launch 2", "launch 3", "launch 4");
        assertThat(outcome).containsExactly("throttled 2 at 200");
    }

    @Test
    void aCrashOnOneLaneKillsTheWholeInvocationAndItsOtherLanesCallsKeepTheirEffect() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(500));
        rt.faults((inv, kind) -> inv.calls() == 5 ? CallFaults.Decision.CRASH : CallFaults.Decision.NONE);
        List<Outcome<String>> outcomes = new ArrayList<>();
        loop.at(T0, "start", () -> rt.start("f", Duration.ofSeconds(60), inv -> {
            rt.fanOut(List.of(1, 2, 3, 4, 5, 6, 7, 8), 4, i -> {
                rt.call(CallKind.CREATE_FLEET, () -> trace.add("launch " + i + " at " + ms()));
                return i;
            });
            rt.call(CallKind.SQS_SEND, () -> trace.add("after the fan-out"));
            return "ok";
        }, (inv, o) -> outcomes.add(o)));
        run();
        // Four launches at 0; the fifth call (the first lane's next) crashes after its effect; nothing runs after.
        assertThat(trace).containsExactly("launch 1 at 0", "launch 2 at 0", "launch 3 at 0", "launch 4 at 0", "launch 5 at 500");
        assertThat(outcomes).singleElement().satisfies(o -> assertThat(o.killed()).isTrue());
        assertThat(rt.stats().get("f").crashed).isEqualTo(1);
        assertThat(rt.inFlight("f")).isZero();
    }

    @Test
    void anInvocationKilledAtItsDeadlineDuringAFanOutLeavesEveryLaneWhereItStood() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(400));
        List<Outcome<String>> outcomes = new ArrayList<>();
        loop.at(T0, "start", () -> rt.start("f", Duration.ofSeconds(1), inv -> {
            rt.fanOut(List.of(1, 2, 3, 4, 5, 6, 7, 8), 2, i -> {
                rt.call(CallKind.CREATE_FLEET, () -> trace.add("launch " + i + " at " + ms()));
                return i;
            });
            return "ok";
        }, (inv, o) -> outcomes.add(o)));
        run();
        assertThat(trace).containsExactly("launch 1 at 0", "launch 2 at 0", "launch 3 at 400", "launch 4 at 400",
                "launch 5 at 800", "launch 6 at 800");
        assertThat(outcomes).singleElement().satisfies(o -> {
            assertThat(o.killed()).isTrue();
            assertThat(o.error()).hasMessageContaining("timed out after 1 s");
        });
        assertThat(rt.stats().get("f").killedByTimeout).isEqualTo(1);
    }

    @Test
    void twoInvocationsInterleaveAtTheirPortCallsInVirtualTimeOrder() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(100));
        loop.at(T0, "a", () -> rt.start("f", Duration.ofSeconds(60), inv -> {
            for (int i = 0; i < 3; i++) {
                int n = i;
                rt.call(CallKind.KUBE_GET, () -> trace.add("a" + n + "@" + ms()));
            }
            return null;
        }, (inv, o) -> { }));
        loop.at(T0.plusMillis(50), "b", () -> rt.start("f", Duration.ofSeconds(60), inv -> {
            for (int i = 0; i < 2; i++) {
                int n = i;
                rt.call(CallKind.KUBE_GET, () -> trace.add("b" + n + "@" + ms()));
            }
            return null;
        }, (inv, o) -> { }));
        run();
        assertThat(trace).containsExactly("a0@0", "b0@50", "a1@100", "b1@150", "a2@200");
        assertThat(rt.stats().get("f").peakConcurrent).isEqualTo(2);
    }

    @Test
    void anInvocationPastItsTimeoutIsKilledWhereItStandsAndItsEarlierEffectsStay() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(400));
        List<Outcome<String>> outcomes = new ArrayList<>();
        loop.at(T0, "start", () -> rt.start("f", Duration.ofSeconds(1), inv -> {
            try {
                for (int i = 0; ; i++) {
                    int n = i;
                    rt.call(CallKind.KUBE_PATCH, () -> trace.add("patch " + n));
                }
            } catch (Exception e) {
                trace.add("the handler caught " + e); // a handler's catch (Exception) must not see the kill
                return "caught";
            } finally {
                rt.call(CallKind.SQS_SEND, () -> trace.add("a dead invocation's send"));
            }
        }, (inv, o) -> outcomes.add(o)));
        run();
        assertThat(trace).containsExactly("patch 0", "patch 1", "patch 2");
        assertThat(outcomes).singleElement().satisfies(o -> {
            assertThat(o.killed()).isTrue();
            assertThat(o.error()).isInstanceOf(Killed.class).hasMessageContaining("timed out after 1 s");
        });
        assertThat(rt.stats().get("f").killedByTimeout).isEqualTo(1);
        assertThat(rt.stats().get("f").longestShare).isEqualTo(1.0);
    }

    @Test
    void aTargetedCrashKillsTheInvocationAfterTheCallTookEffect() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(10));
        rt.faults((inv, kind) -> inv.number() == 2 && inv.calls() == 2 ? CallFaults.Decision.CRASH : CallFaults.Decision.NONE);
        List<Boolean> killed = new ArrayList<>();
        for (int n = 0; n < 3; n++) {
            loop.at(T0.plusSeconds(n), "start", () -> rt.start("f", Duration.ofSeconds(60), inv -> {
                for (int i = 1; i <= 3; i++) {
                    int c = i;
                    rt.call(CallKind.DYNAMO_WRITE, () -> trace.add(inv.number() + "." + c));
                }
                return null;
            }, (inv, o) -> killed.add(o.killed())));
        }
        run();
        assertThat(trace).containsExactly("1.1", "1.2", "1.3", "2.1", "2.2", "3.1", "3.2", "3.3");
        assertThat(killed).containsExactly(false, true, false);
        assertThat(rt.stats().get("f").crashed).isEqualTo(1);
    }

    @Test
    void aFrozenInvocationStaysWhereItStandsUntilItsDeadline() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(10));
        rt.faults((inv, kind) -> inv.calls() == 1 ? CallFaults.Decision.FREEZE : CallFaults.Decision.NONE);
        loop.at(T0, "start", () -> rt.start("f", Duration.ofSeconds(30), inv -> {
            rt.call(CallKind.CREATE_FLEET, () -> trace.add("launched"));
            return null;
        }, (inv, o) -> trace.add("killed=" + o.killed() + " at " + ms())));
        run();
        assertThat(trace).containsExactly("killed=true at 30000");
    }

    @Test
    void aHungAttemptEndsAtTheClientsAttemptTimeoutAndItsRetryAnswers() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(10));
        rt.faults((inv, kind) -> inv.calls() == 1 ? CallFaults.Decision.HANG : CallFaults.Decision.NONE);
        loop.at(T0, "start", () -> rt.start("f", Duration.ofSeconds(60), inv -> {
            rt.call(CallKind.CREATE_FLEET, () -> trace.add("launched"));
            trace.add("answered at " + ms());
            return null;
        }, (inv, o) -> trace.add("killed=" + o.killed())));
        run();
        long attempt = dev.gantry.config.deployment.CallTimeouts.DEFAULT.ec2().attempt().toMillis();
        assertThat(trace).contains("launched").last().isEqualTo("killed=false");
        long answered = Long.parseLong(trace.stream().filter(t -> t.startsWith("answered at ")).findFirst().orElseThrow()
                .substring("answered at ".length()));
        assertThat(answered).as("the attempt timeout, the SDK's backoff (at most 200 ms), the retry's latency")
                .isBetween(attempt + 10, attempt + 210);
    }

    @Test
    void aCallNoneOfWhoseAttemptsIsAnsweredFailsWithinItsBudgetAndTheInvocationLivesOn() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(10));
        rt.faults((inv, kind) -> CallFaults.Decision.HANG);
        loop.at(T0, "start", () -> rt.start("f", Duration.ofSeconds(60), inv -> {
            try {
                rt.call(CallKind.SQS_SEND, () -> { });
            } catch (CallTimedOut e) {
                trace.add("timed out at " + ms());
            }
            return null;
        }, (inv, o) -> trace.add("killed=" + o.killed())));
        run();
        dev.gantry.config.deployment.CallTimeouts.Budget sqs = dev.gantry.config.deployment.CallTimeouts.DEFAULT.sqs();
        assertThat(trace).hasSize(2).last().isEqualTo("killed=false");
        long at = Long.parseLong(trace.getFirst().substring("timed out at ".length()));
        assertThat(at).isGreaterThanOrEqualTo(sqs.attempt().multipliedBy(sqs.attempts() - 1).toMillis())
                .isLessThanOrEqualTo(sqs.call().toMillis());
    }

    @Test
    void callsOutsideAnInvocationCostNothing() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(500));
        assertThat(rt.call(CallKind.KUBE_LIST, () -> ms(), x -> 1)).isZero();
        assertThat(ms()).isZero();
        assertThatThrownBy(() -> rt.crash("no invocation")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void whatAnInvocationPrintsIsItsOwnEvenWhenInvocationsOverlap() {
        LambdaRuntime rt = new LambdaRuntime(loop, fixed(100));
        List<List<String>> outs = new ArrayList<>();
        for (String name : List.of("a", "b")) {
            loop.at(T0, name, () -> rt.start("f", Duration.ofSeconds(60), inv -> {
                System.out.println(name + " before");
                rt.call(CallKind.KUBE_GET, () -> { });
                System.out.println(name + " after");
                return null;
            }, (inv, o) -> outs.add(o.out())));
        }
        run();
        assertThat(outs).containsExactly(List.of("a before", "a after"), List.of("b before", "b after"));
    }
}
