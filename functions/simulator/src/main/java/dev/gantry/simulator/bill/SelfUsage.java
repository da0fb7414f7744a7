package dev.gantry.simulator.bill;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What Gantry's own use of SQS, DynamoDB and EventBridge came to in a run, as the simulated services count it while
 * they serve the handlers (Lambda's invocations are counted by the runtime, {@code FunctionStats}). Counts follow
 * the billing rules of {@code bill/README.md}: SQS requests with each 64 KB chunk of a payload as one, DynamoDB
 * request units, EventBridge events by detail type. Not thread-safe: the simulation runs one thread at a time.
 */
public final class SelfUsage {
    /** One queue's billed requests by API action. */
    public static final class Queue {
        final boolean fifo;
        final Map<String, Long> byAction = new TreeMap<>();

        Queue(boolean fifo) {
            this.fifo = fifo;
        }

        long total() {
            return byAction.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private final Map<String, Queue> queues = new LinkedHashMap<>();
    private final Map<String, Long> awsEvents = new TreeMap<>();
    private long customEvents;
    private double readUnits;
    private double writeUnits;

    /** {@code requests} billed requests of {@code action} (SendMessage, ReceiveMessage...) on the queue. */
    public void sqs(String queue, boolean fifo, String action, long requests) {
        queues.computeIfAbsent(queue, q -> new Queue(fifo)).byAction.merge(action, requests, Long::sum);
    }

    /** The billed requests of a payload of {@code bytes}: one per started 64 KB chunk, at least one. */
    public static long chunks(long bytes, int chunkBytes) {
        return Math.max(1, (bytes + chunkBytes - 1) / chunkBytes);
    }

    public void dynamoRead(double units) {
        readUnits += units;
    }

    public void dynamoWrite(double units) {
        writeUnits += units;
    }

    /** An event an AWS service put on the default bus (EC2, AWS Health, a scheduled rule): free. */
    public void awsEvent(String detailType) {
        awsEvents.merge(detailType, 1L, Long::sum);
    }

    /** An event Gantry put on a bus itself: billed. Gantry publishes none today. */
    public void customEvent() {
        customEvents++;
    }

    /** The billed requests of {@code action} on {@code queue} so far. */
    public long sqsRequests(String queue, String action) {
        Queue q = queues.get(queue);
        return q == null ? 0 : q.byAction.getOrDefault(action, 0L);
    }

    Map<String, Queue> queues() {
        return queues;
    }

    Map<String, Long> awsEvents() {
        return awsEvents;
    }

    long customEvents() {
        return customEvents;
    }

    public double readUnits() {
        return readUnits;
    }

    double writeUnits() {
        return writeUnits;
    }
}
