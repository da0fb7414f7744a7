package dev.gantry.testing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The stub's model of EC2 status checks, per instance: the instance check and the system check (each {@code ok} or
 * {@code impaired}, with when it began failing) and the scheduled events. An instance nobody touched is {@code ok}
 * on both. Tests drive it through {@link Ec2State#statuses()}; {@link Ec2InstanceStatusAction} answers from it.
 */
public final class Ec2InstanceStatuses {
    /** One check's state: {@code ok} or {@code impaired}, and since when it failed (null while ok). */
    public record Check(String status, Instant impairedSince) {
        static final Check OK = new Check("ok", null);
    }

    /** A scheduled event as EC2 lists it: code, id, window and description. */
    public record Event(String code, String eventId, Instant notBefore, Instant notAfter, String description) {
    }

    private final Map<String, Check> instanceChecks = new ConcurrentHashMap<>();
    private final Map<String, Check> systemChecks = new ConcurrentHashMap<>();
    private final Map<String, List<Event>> events = new ConcurrentHashMap<>();

    /** The instance's own check (its OS, kernel, network stack) fails from {@code since}. */
    public void impairInstance(String instanceId, Instant since) {
        instanceChecks.put(instanceId, new Check("impaired", since));
    }

    /** The host's check (power, network, hardware) fails from {@code since}. */
    public void impairSystem(String instanceId, Instant since) {
        systemChecks.put(instanceId, new Check("impaired", since));
    }

    /** Both checks pass again. */
    public void recover(String instanceId) {
        instanceChecks.remove(instanceId);
        systemChecks.remove(instanceId);
    }

    /** EC2 schedules {@code code} (instance-retirement, system-reboot…) for the instance, from {@code notBefore}. */
    public Event schedule(String instanceId, String code, Instant notBefore) {
        Event e = new Event(code, "instance-event-" + Long.toHexString(Math.abs((instanceId + code).hashCode())),
                notBefore, notBefore.plusSeconds(7 * 86_400), "The instance is scheduled for " + code.replace('-', ' '));
        events.computeIfAbsent(instanceId, k -> new ArrayList<>()).add(e);
        return e;
    }

    /** The instance's events, EC2 marking them over ({@code [Completed]} in front) once done. */
    public void complete(String instanceId) {
        events.computeIfPresent(instanceId, (k, es) -> new ArrayList<>(es.stream().map(e -> new Event(e.code(),
                e.eventId(), e.notBefore(), e.notAfter(), "[Completed] " + e.description())).toList()));
    }

    Check instanceCheck(String instanceId) {
        return instanceChecks.getOrDefault(instanceId, Check.OK);
    }

    Check systemCheck(String instanceId) {
        return systemChecks.getOrDefault(instanceId, Check.OK);
    }

    List<Event> events(String instanceId) {
        return List.copyOf(events.getOrDefault(instanceId, List.of()));
    }
}
