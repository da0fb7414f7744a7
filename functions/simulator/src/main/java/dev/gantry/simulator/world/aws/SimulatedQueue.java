package dev.gantry.simulator.world.aws;

import dev.gantry.simulator.bill.SelfUsage;
import dev.gantry.simulator.faults.FaultPlan;
import dev.gantry.simulator.faults.Faults;
import dev.gantry.simulator.runtime.CallKind;
import dev.gantry.simulator.runtime.LambdaRuntime;
import dev.gantry.core.work.Redelivery;
import dev.gantry.core.work.WorkQueue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * SQS in memory, on the virtual clock: standard or FIFO. FIFO queues drop a message whose deduplication id was seen in
 * the last five minutes and hand out one group's messages only while none of that group is in flight. Per-message
 * delays apply to standard queues. A received message stays invisible for the visibility timeout and comes back unless
 * deleted; after {@code maxReceiveCount} receives it moves to the dead-letter list. Each receive hands out a fresh
 * receipt handle; like SQS's ChangeMessageVisibility ({@link Redelivery}), only the latest one of a message still in
 * flight may change when it comes back.
 *
 * <p>Retention: a message older than the queue's retention (counted from its first send) is deleted by SQS, wherever
 * it is; one that expires before reaching the dead-letter queue is lost, and counted ({@link #expiredCount()}).
 * At-least-once: with the fault plan's {@code duplicates} rate, a standard queue hands out a second copy of a message
 * it delivers (to another consumer, or to the same one later), as SQS occasionally does; FIFO queues deliver exactly
 * once. Sends and ChangeMessageVisibility calls made from an invocation cost their latency.
 *
 * <p>Not modelled: the dead-letter queue's own retention (SQS keeps the original enqueue time, so a dead letter
 * older than the DLQ's retention would expire at once; the deployed DLQ retention is far longer than any source
 * retention); a duplicate's message id (here a new one, in SQS the same); long polling and empty receives.
 */
public final class SimulatedQueue implements WorkQueue, Redelivery {
    static final Duration DEDUP_WINDOW = Duration.ofMinutes(5);

    /** A message as a consumer sees it. */
    public record Message(long id, String body, String groupId, int receiveCount, String receiptHandle) {
    }

    /** A message that went to the dead-letter queue, with what each of its receives ended in. */
    public record DeadLetter(long id, String body, List<String> receives) {
    }

    private static final class Entry {
        final long id;
        final String body;
        final String groupId;
        final Instant sentAt;
        Instant visibleAt;
        int receives;
        boolean inFlight;
        /** Each receive's time and what its consumer made of it (for the dead-letter trace). */
        final List<String> history = new ArrayList<>();

        Entry(long id, String body, String groupId, Instant sentAt, Instant visibleAt) {
            this.id = id;
            this.body = body;
            this.groupId = groupId;
            this.sentAt = sentAt;
            this.visibleAt = visibleAt;
        }
    }

    private final String name;
    private final boolean fifo;
    private final Duration visibilityTimeout;
    private final int maxReceiveCount;
    private final Clock clock;
    private final List<Entry> entries = new ArrayList<>();
    private final Map<String, Instant> dedup = new HashMap<>();
    private final List<DeadLetter> deadLetters = new ArrayList<>();
    private Consumer<Instant> onVisible = t -> { };
    private long nextId = 1;
    private long sent;
    private long duplicates;
    private long expired;
    private long duplicateDeliveries;
    private Duration retention = Duration.ofDays(14);
    private LambdaRuntime runtime;
    private Faults faults = new Faults(FaultPlan.NONE, 0);
    private SelfUsage usage = new SelfUsage();
    private int chunkBytes = 64 * 1024;

    public SimulatedQueue(String name, boolean fifo, Duration visibilityTimeout, int maxReceiveCount, Clock clock) {
        this.name = name;
        this.fifo = fifo;
        this.visibilityTimeout = visibilityTimeout;
        this.maxReceiveCount = maxReceiveCount;
        this.clock = clock;
    }

    /** How long SQS keeps a message. */
    public void retention(Duration d) {
        this.retention = d;
    }

    /** Calls from invocations cost time on {@code r}; {@code f} injects duplicates and targeted send errors. */
    public void runtime(LambdaRuntime r, Faults f) {
        this.runtime = r;
        this.faults = f;
    }

    private void call(CallKind kind, Runnable body) {
        Runnable once = () -> {
            if (faults.targetedError()) {
                throw new IllegalStateException("SqsException: " + name + ": service unavailable (injected at this call)");
            }
            body.run();
        };
        if (runtime == null) {
            once.run();
        } else {
            runtime.call(kind, once);
        }
    }

    /**
     * Counts the requests SQS bills for this queue into {@code u}, each 64 KB chunk ({@code chunkBytes}) of a payload
     * as one: sends (a FIFO send dropped as a duplicate is billed too), receives that returned messages (idle long
     * polls are the bill's to add), deletes and visibility changes, ten entries a batch request.
     */
    public void meter(SelfUsage u, int chunkBytes) {
        this.usage = u;
        this.chunkBytes = chunkBytes;
        u.sqs(name, fifo, "SendMessage", 0);
    }

    private void billed(String action, long bytes) {
        usage.sqs(name, fifo, action, SelfUsage.chunks(bytes, chunkBytes));
    }

    /** Told the instant at which a message becomes receivable (on send, and when a visibility timeout will run out). */
    public void onVisible(Consumer<Instant> listener) {
        this.onVisible = listener;
    }

    @Override
    public void send(String body, String groupId, String deduplicationId, Duration delay) {
        call(CallKind.SQS_SEND, () -> sendNow(body, groupId, deduplicationId, delay));
    }

    private void sendNow(String body, String groupId, String deduplicationId, Duration delay) {
        Instant now = clock.instant();
        billed("SendMessage", body.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        if (fifo && deduplicationId != null) {
            Instant seen = dedup.get(deduplicationId);
            if (seen != null && now.isBefore(seen.plus(DEDUP_WINDOW))) {
                duplicates++;
                return;
            }
            dedup.put(deduplicationId, now);
        }
        Instant visible = fifo || delay == null ? now : now.plus(delay);
        entries.add(new Entry(nextId++, body, fifo ? groupId : null, now, visible));
        sent++;
        onVisible.accept(visible);
    }

    /** Up to {@code max} receivable messages, now in flight. Messages received too often go to the dead letters. */
    public List<Message> receive(int max) {
        Instant now = clock.instant();
        expire();
        Set<String> busyGroups = new HashSet<>();
        for (Entry e : entries) {
            if (e.inFlight && now.isBefore(e.visibleAt) && e.groupId != null) {
                busyGroups.add(e.groupId);
            }
        }
        List<Message> out = new ArrayList<>();
        Iterator<Entry> it = entries.iterator();
        while (it.hasNext() && out.size() < max) {
            Entry e = it.next();
            // A FIFO group with a message in flight returns none of its messages, not even one whose own visibility
            // ran out: SQS unlocks the group only when every in-flight message is deleted or visible again.
            if (now.isBefore(e.visibleAt) || (e.groupId != null && busyGroups.contains(e.groupId))) {
                continue;
            }
            if (e.receives >= maxReceiveCount) {
                it.remove();
                deadLetters.add(new DeadLetter(e.id, e.body, List.copyOf(e.history)));
                continue;
            }
            e.receives++;
            e.inFlight = true;
            e.history.add(now.toString());
            e.visibleAt = now.plus(visibilityTimeout);
            out.add(new Message(e.id, e.body, e.groupId, e.receives, receiptHandle(e)));
        }
        if (!out.isEmpty()) {
            billed("ReceiveMessage", out.stream().mapToLong(m -> m.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length).sum());
        }
        if (!fifo) {
            for (Message m : out) {
                if (faults.draw("duplicates", faults.plan().sqs().duplicates())) {
                    duplicateDeliveries++;
                    Entry original = entries.stream().filter(x -> x.id == m.id()).findFirst().orElseThrow();
                    Entry copy = new Entry(nextId++, m.body(), null, original.sentAt, now);
                    entries.add(copy);
                    onVisible.accept(now);
                }
            }
        }
        return out;
    }

    /** Deletes what outlived the retention period: lost, unless it is already a dead letter. */
    public void expire() {
        Instant now = clock.instant();
        Iterator<Entry> it = entries.iterator();
        while (it.hasNext()) {
            Entry e = it.next();
            if (!now.isBefore(e.sentAt.plus(retention))) {
                it.remove();
                expired++;
            }
        }
    }

    private String receiptHandle(Entry e) {
        return name + "/" + e.id + "/" + e.receives;
    }

    /**
     * ChangeMessageVisibility: the message comes back {@code after} from now.
     *
     * @throws IllegalStateException when the handle is not the latest receive of a message in flight (SQS refuses
     *                               an expired or superseded receipt handle)
     */
    @Override
    public void redeliverAfter(String receiptHandle, Duration after) {
        call(CallKind.SQS_CHANGE_VISIBILITY, () -> {
            billed("ChangeMessageVisibility", 0);
            redeliverNow(receiptHandle, after);
        });
    }

    /**
     * ChangeMessageVisibilityBatch: one call (one latency, one fault draw) per 10 handles, as SQS takes them; every
     * entry is attempted, and the ones not in flight are reported together, as SQS's per-entry failures.
     */
    @Override
    public void redeliverAllAfter(List<String> receiptHandles, Duration after) {
        for (int from = 0; from < receiptHandles.size(); from += 10) {
            List<String> chunk = receiptHandles.subList(from, Math.min(receiptHandles.size(), from + 10));
            call(CallKind.SQS_CHANGE_VISIBILITY, () -> {
                billed("ChangeMessageVisibility", 0);
                List<String> failed = new ArrayList<>();
                for (String h : chunk) {
                    try {
                        redeliverNow(h, after);
                    } catch (IllegalStateException e) {
                        failed.add(h);
                    }
                }
                if (!failed.isEmpty()) {
                    throw new IllegalStateException("receipt handles " + failed + " are not in flight");
                }
            });
        }
    }

    private void redeliverNow(String receiptHandle, Duration after) {
        Instant now = clock.instant();
        for (Entry e : entries) {
            if (receiptHandle(e).equals(receiptHandle) && e.inFlight && now.isBefore(e.visibleAt)) {
                e.visibleAt = now.plus(after);
                onVisible.accept(e.visibleAt);
                return;
            }
        }
        throw new IllegalStateException("receipt handle " + receiptHandle + " is not in flight");
    }

    /** Deletes a processed message. */
    public void delete(Message m) {
        entries.removeIf(e -> e.id == m.id());
    }

    /** DeleteMessageBatch, as Lambda's event source deletes a batch's successes: one request per ten messages. */
    public void deleteAll(List<Message> ms) {
        for (int i = 0; i < ms.size(); i += 10) {
            billed("DeleteMessageBatch", 0);
        }
        ms.forEach(this::delete);
    }

    /** The consumer failed this message: it becomes receivable again when its visibility timeout runs out. */
    public void release(Message m) {
        release(m, "failed");
    }

    /** {@link #release(Message)}, noting {@code why} against this receive (what the dead-letter trace shows). */
    public void release(Message m, String why) {
        for (Entry e : entries) {
            if (e.id == m.id()) {
                if (!e.history.isEmpty()) {
                    int last = e.history.size() - 1;
                    e.history.set(last, e.history.get(last) + ": " + why);
                }
                onVisible.accept(e.visibleAt);
            }
        }
    }

    /** Whether a message is receivable now. */
    public boolean hasVisible() {
        Instant now = clock.instant();
        return entries.stream().anyMatch(e -> !now.isBefore(e.visibleAt));
    }

    public String name() {
        return name;
    }

    public int depth() {
        return entries.size();
    }

    public List<String> deadLetters() {
        return deadLetters.stream().map(DeadLetter::body).toList();
    }

    /** The dead letters with each receive's time and outcome, in the order they were moved. */
    public List<DeadLetter> deadLetterTrace() {
        return List.copyOf(deadLetters);
    }

    public long sentCount() {
        return sent;
    }

    /** Messages SQS deleted at the end of their retention before they reached the dead-letter queue: lost. */
    public long expiredCount() {
        return expired;
    }

    /** Second copies handed out (at-least-once delivery). */
    public long duplicateDeliveries() {
        return duplicateDeliveries;
    }

    /** FIFO messages dropped as duplicates within the deduplication window. */
    public long duplicateCount() {
        return duplicates;
    }
}
