package dev.gantry.simulator.report;

import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.world.aws.EventBridge;
import dev.gantry.core.model.KubeDuration;
import java.util.ArrayList;
import java.util.List;

/**
 * The scenario's events as chart markers: scale steps and applied manifests, interruptions (warnings, raw EventBridge
 * events, deleted nodes, an outage of every instance) and injected faults, each with its time and a short label. Read
 * from the scenario itself, so a marker is never lost to the timeline's length cap.
 */
final class ReportMarkers {
    /** What a marker stands for, which sets its colour and its place in the legend. */
    enum Kind {
        STEP("#0969da"), INTERRUPTION("#cf222e"), FAULT("#bc4c00");

        final String color;

        Kind(String color) {
            this.color = color;
        }
    }

    /** One marker: {@code number} is its 1-based place, drawn on the chart and in the legend. */
    record Marker(int number, long t, Kind kind, String label) {
    }

    private ReportMarkers() {
    }

    static List<Marker> of(Scenario scenario) {
        List<Marker> out = new ArrayList<>();
        for (Scenario.Event e : scenario.events()) {
            long t = e.at().toSeconds();
            if (t > scenario.run().duration().toSeconds()) {
                continue;
            }
            Kind kind = switch (e.action()) {
                case Scenario.Interrupt i -> Kind.INTERRUPTION;
                case Scenario.AwsEvent a -> Kind.INTERRUPTION;
                case Scenario.DeleteNode d -> Kind.INTERRUPTION;
                case Scenario.TerminateAllNodes x -> Kind.INTERRUPTION;
                case Scenario.Apply a -> Kind.STEP;
                case Scenario.Scale s -> Kind.STEP;
                case Scenario.ScaleNodePool s -> Kind.STEP;
                case Scenario.Delete d -> Kind.STEP;
                case Scenario.ApplyConfig a -> Kind.STEP;
                case Scenario.DeleteConfig d -> Kind.STEP;
                case Scenario.AmiRelease r -> Kind.STEP;
                default -> Kind.FAULT;
            };
            out.add(new Marker(out.size() + 1, t, kind, label(e.action())));
        }
        return List.copyOf(out);
    }

    static String label(Scenario.Action action) {
        return switch (action) {
            case Scenario.Apply a -> "apply " + a.file().getFileName();
            case Scenario.Scale s -> "scale " + s.deployment() + " to " + s.replicas();
            case Scenario.ScaleNodePool s -> "scale nodepool " + s.nodePool() + " to " + s.replicas();
            case Scenario.Delete d -> "delete " + d.deployment();
            case Scenario.ApplyConfig a -> "apply " + a.kind() + "/" + a.name();
            case Scenario.DeleteConfig d -> "delete " + d.kind() + "/" + d.name();
            case Scenario.Interrupt i -> i.kind() + " warnings for " + i.count()
                    + (i.capacityType() == null ? "" : " " + i.capacityType()) + " node" + (i.count() == 1 ? "" : "s")
                    + (i.zone() == null ? "" : " in " + i.zone());
            case Scenario.AwsEvent a -> "EventBridge event " + a.file().getFileName();
            case Scenario.DeleteNode d -> "kubectl delete node #" + d.index();
            case Scenario.TerminateAllNodes x -> "every instance dies";
            case Scenario.Ice ice -> "insufficient capacity" + (ice.zones().isEmpty() ? "" : " in " + String.join(", ", ice.zones()))
                    + (ice.capacityTypes().isEmpty() ? "" : " (" + String.join(", ", ice.capacityTypes()) + ")")
                    + " for " + KubeDuration.format(ice.lasting());
            case Scenario.Throttle th -> "EC2 throttles " + Math.round(th.probability() * 100) + "% of calls for "
                    + KubeDuration.format(th.lasting());
            case Scenario.NoisyNeighbour n -> "noisy neighbour (" + Math.round(n.demand()) + "x EC2's refill rate) for "
                    + KubeDuration.format(n.lasting());
            case Scenario.Ec2Outage o -> "EC2 outage for " + KubeDuration.format(o.lasting());
            case Scenario.ApiServerDown d -> "API server down for " + KubeDuration.format(d.lasting());
            case Scenario.CrashAfterLaunch c -> "provisioner crashes after " + c.count() + " CreateFleet calls";
            case Scenario.AmiRelease r -> "AMI release " + r.family() + " " + r.version();
            case Scenario.Health h -> h.event().label();
            case Scenario.ReservationInterruption r -> r.reservation() + " reclaims " + r.count() + " instance"
                    + (r.count() == 1 ? "" : "s");
        };
    }
}
