package dev.gantry.handlers.webhook;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The deduplication ids this execution environment has sent to the provisioning queue, most recent first, at most
 * {@value #REMEMBERED}. A hint whose id is here would be dropped by the FIFO queue (its deduplication window is 5
 * minutes; an id names one reason in one bucket of seconds, so it recurs only within that bucket), but SQS bills the
 * send all the same: in a burst every pod's request in a second sent the same message. Only sends that succeeded are
 * remembered, so a failed or unanswered send is tried again by the next request; a send SQS took whose answer was lost
 * is sent again and dropped there, as before. Gantry's own (a cost rule); not thread-safe: one per handler, and a
 * Lambda environment serves one request at a time.
 */
public final class SentHints {
    /** Ids kept: a few reasons times a few buckets is all that can recur. */
    static final int REMEMBERED = 16;

    private final Map<String, Boolean> sent = new LinkedHashMap<>(32, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    };

    /** True when this environment already sent {@code deduplicationId}: the queue would drop it. */
    public boolean alreadySent(String deduplicationId) {
        return sent.containsKey(deduplicationId);
    }

    /** Records a send the queue accepted. */
    public void sent(String deduplicationId) {
        sent.put(deduplicationId, Boolean.TRUE);
    }
}
