package dev.gantry.kube.objects;

import static dev.gantry.kube.objects.Selectors.nonNull;

import dev.gantry.core.model.Container;
import dev.gantry.core.model.HostPort;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.model.TopologySpread;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A fabric8 pod (or pod template) as the core's {@link Pod}: effective requests by kube-scheduler's rule, node
 * selector and affinity, tolerations, spreads, host ports, owner, priority and the status Gantry acts on (with the
 * restarts of its containers and init containers, and whether one waits in {@code CrashLoopBackOff}: what an AMI
 * rollout's canary is judged by).
 */
public final class PodMapper {
    static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";
    /** The kubelet's waiting reason for a container it holds back after it exited (its restart back-off). */
    static final String CRASH_LOOP_BACK_OFF = "CrashLoopBackOff";

    private PodMapper() {
    }

    /** A pod as the API server returns it (a pod without a namespace is in {@code default}, as kubectl applies it). */
    public static Pod pod(io.fabric8.kubernetes.api.model.Pod p) {
        ObjectMeta m = p.getMetadata();
        Pod.Builder b = spec(m.getNamespace() == null ? "default" : m.getNamespace(), m.getName(), m, p.getSpec());
        b.uid(m.getUid());
        OwnerReference owner = controller(m.getOwnerReferences());
        if (owner != null) {
            b.owner(owner.getKind(), owner.getName());
        } else if (nonNull(m.getAnnotations()).containsKey(MIRROR_ANNOTATION)) {
            // A static pod's mirror: the kubelet owns it, whatever the API server's copy says.
            b.owner("Node", p.getSpec() == null ? null : p.getSpec().getNodeName());
        }
        b.status(status(p.getStatus(), m, p.getSpec()));
        return b.build();
    }

    /** A pod template (a DaemonSet's) as a pending pod owned by {@code ownerKind}/{@code ownerName}. */
    public static Pod template(String namespace, String name, ObjectMeta templateMeta, PodSpec spec, String ownerKind, String ownerName) {
        ObjectMeta m = templateMeta == null ? new ObjectMeta() : templateMeta;
        return spec(namespace, name, m, spec).owner(ownerKind, ownerName).build();
    }

    private static Pod.Builder spec(String namespace, String name, ObjectMeta m, PodSpec spec) {
        Map<String, String> labels = nonNull(m.getLabels());
        Pod.Builder b = Pod.builder(namespace, name).labels(labels).annotations(m.getAnnotations());
        if (spec == null) {
            return b;
        }
        List<Container> init = containers(spec.getInitContainers(), true);
        List<Container> apps = containers(spec.getContainers(), false);
        Map<String, io.fabric8.kubernetes.api.model.Quantity> overhead = spec.getOverhead();
        io.fabric8.kubernetes.api.model.ResourceRequirements podLevel = spec.getResources();
        b.requests(Container.podRequests(init, apps, overhead == null || overhead.isEmpty() ? null : Resources.fromQuantities(quantities(overhead)),
                podLevel == null ? Map.of() : quantities(podLevel.getRequests()), podLevel == null ? Map.of() : quantities(podLevel.getLimits())));
        List<HostPort> ports = new ArrayList<>();
        init.forEach(c -> ports.addAll(c.hostPorts()));
        apps.forEach(c -> ports.addAll(c.hostPorts()));
        b.hostPorts(ports);
        b.nodeSelector(spec.getNodeSelector());
        if (spec.getAffinity() != null) {
            AffinityMapper.map(spec.getAffinity(), labels, b);
        }
        b.tolerations(tolerations(spec.getTolerations()));
        b.topologySpread(spreads(spec.getTopologySpreadConstraints(), labels));
        b.nodeName(spec.getNodeName());
        b.priority(spec.getPriority() == null ? 0 : spec.getPriority());
        b.priorityClassName(spec.getPriorityClassName());
        return b;
    }

    private static List<Container> containers(List<io.fabric8.kubernetes.api.model.Container> cs, boolean init) {
        List<Container> out = new ArrayList<>();
        for (io.fabric8.kubernetes.api.model.Container c : nonNull(cs)) {
            ResourceRequirements r = c.getResources();
            Map<String, Quantity> requests = r == null ? Map.of() : quantities(r.getRequests());
            Map<String, Quantity> limits = r == null ? Map.of() : quantities(r.getLimits());
            List<HostPort> ports = new ArrayList<>();
            for (ContainerPort p : nonNull(c.getPorts())) {
                if (p.getHostPort() != null && p.getHostPort() > 0) {
                    ports.add(new HostPort(p.getHostPort(), p.getProtocol(), p.getHostIP()));
                }
            }
            out.add(new Container(c.getName(), requests, limits, init && "Always".equals(c.getRestartPolicy()), ports));
        }
        return out;
    }

    public static Map<String, Quantity> quantities(Map<String, io.fabric8.kubernetes.api.model.Quantity> m) {
        Map<String, Quantity> out = new HashMap<>();
        nonNull(m).forEach((k, v) -> out.put(k, Quantity.parse(v.toString())));
        return out;
    }

    private static List<Toleration> tolerations(List<io.fabric8.kubernetes.api.model.Toleration> ts) {
        List<Toleration> out = new ArrayList<>();
        for (io.fabric8.kubernetes.api.model.Toleration t : nonNull(ts)) {
            Toleration.Operator op = "Exists".equals(t.getOperator()) ? Toleration.Operator.Exists : Toleration.Operator.Equal;
            Taint.Effect effect = t.getEffect() == null || t.getEffect().isEmpty() ? null : Taint.Effect.parse(t.getEffect());
            out.add(new Toleration(t.getKey(), op, t.getValue(), effect));
        }
        return out;
    }

    private static List<TopologySpread> spreads(List<TopologySpreadConstraint> cs, Map<String, String> podLabels) {
        List<TopologySpread> out = new ArrayList<>();
        for (TopologySpreadConstraint c : nonNull(cs)) {
            out.add(new TopologySpread(c.getMaxSkew() == null ? 1 : c.getMaxSkew(), c.getTopologyKey(),
                    !"ScheduleAnyway".equals(c.getWhenUnsatisfiable()),
                    Selectors.withPodKeys(Selectors.label(c.getLabelSelector()), podLabels, c.getMatchLabelKeys(), null),
                    c.getMinDomains(), c.getMatchLabelKeys(), !"Ignore".equals(c.getNodeAffinityPolicy()),
                    "Honor".equals(c.getNodeTaintsPolicy())));
        }
        return out;
    }

    private static Pod.Status status(PodStatus s, ObjectMeta m, PodSpec spec) {
        boolean unschedulable = false;
        String phase = null;
        Boolean ready = null;
        String started = null;
        if (s != null) {
            phase = s.getPhase();
            started = s.getStartTime();
            for (PodCondition c : nonNull(s.getConditions())) {
                if ("PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason())) {
                    unschedulable = true;
                } else if ("Ready".equals(c.getType()) && c.getStatus() != null) {
                    ready = "True".equals(c.getStatus());
                }
            }
        }
        Long grace = spec == null ? null : spec.getTerminationGracePeriodSeconds();
        Pod.Status out = new Pod.Status(phase, unschedulable, instant(m.getCreationTimestamp()), instant(m.getDeletionTimestamp()),
                grace, instant(started), ready);
        if (s == null) {
            return out;
        }
        int restarts = 0;
        boolean backOff = false;
        for (List<ContainerStatus> statuses : List.of(nonNull(s.getInitContainerStatuses()), nonNull(s.getContainerStatuses()))) {
            for (ContainerStatus c : statuses) {
                restarts += c.getRestartCount() == null ? 0 : Math.max(0, c.getRestartCount());
                backOff |= c.getState() != null && c.getState().getWaiting() != null
                        && CRASH_LOOP_BACK_OFF.equals(c.getState().getWaiting().getReason());
            }
        }
        return restarts == 0 && !backOff ? out : out.withRestarts(restarts, backOff);
    }

    /**
     * The controller among the owner references, else the first owner: Karpenter reads any DaemonSet or Node owner as
     * "daemon" or "static", controller or not.
     */
    public static OwnerReference controller(List<OwnerReference> refs) {
        for (OwnerReference r : nonNull(refs)) {
            if (Boolean.TRUE.equals(r.getController())) {
                return r;
            }
        }
        return refs == null || refs.isEmpty() ? null : refs.get(0);
    }

    /**
     * An RFC 3339 timestamp as the API server writes it ({@code 2026-05-01T10:00:00Z}, with or without fractions or an
     * offset). The API server's own form, whole seconds in UTC, is read field by field: through the JDK's formatter it
     * was a third of mapping a pod, and a cluster read maps every pod. Any other form, and any value the fields refuse,
     * goes to the formatter, which reads or refuses it as before.
     */
    public static Instant instant(String timestamp) {
        if (timestamp == null || timestamp.isEmpty()) {
            return null;
        }
        Instant quick = utcSeconds(timestamp);
        return quick != null ? quick
                : java.time.OffsetDateTime.parse(timestamp, java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    }

    /** {@code yyyy-MM-ddTHH:mm:ssZ}, or null when {@code t} is not exactly that with valid fields. */
    private static Instant utcSeconds(String t) {
        if (t.length() != 20 || t.charAt(4) != '-' || t.charAt(7) != '-' || t.charAt(10) != 'T' || t.charAt(13) != ':'
                || t.charAt(16) != ':' || t.charAt(19) != 'Z') {
            return null;
        }
        int year = digits(t, 0, 4);
        int month = digits(t, 5, 2);
        int day = digits(t, 8, 2);
        int hour = digits(t, 11, 2);
        int minute = digits(t, 14, 2);
        int second = digits(t, 17, 2);
        if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || hour > 23 || minute > 59 || second > 59) {
            return null;
        }
        try {
            return Instant.ofEpochSecond(java.time.LocalDate.of(year, month, day).toEpochDay() * 86_400L + hour * 3600L + minute * 60L + second);
        } catch (java.time.DateTimeException e) {
            return null; // a day the month does not have: the formatter says so
        }
    }

    /** The decimal number of {@code n} ASCII digits at {@code from}, or -1 when one is not a digit. */
    private static int digits(String t, int from, int n) {
        int v = 0;
        for (int i = from; i < from + n; i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
