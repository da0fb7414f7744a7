package dev.gantry.core.model;

/** A container's host port. Two pods conflict on a node when port and protocol match and their IPs overlap. */
public record HostPort(int port, String protocol, String hostIP) {
    public HostPort {
        protocol = protocol == null || protocol.isEmpty() ? "TCP" : protocol;
        hostIP = hostIP == null || hostIP.isEmpty() ? "0.0.0.0" : hostIP;
    }

    /** Port 0 (no host port) never conflicts, as in kube-scheduler's NodePorts filter. */
    public boolean conflictsWith(HostPort o) {
        return port > 0 && port == o.port && protocol.equals(o.protocol)
                && (hostIP.equals(o.hostIP) || hostIP.equals("0.0.0.0") || o.hostIP.equals("0.0.0.0"));
    }
}
