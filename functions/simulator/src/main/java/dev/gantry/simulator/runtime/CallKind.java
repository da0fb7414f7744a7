package dev.gantry.simulator.runtime;

/**
 * The port calls an invocation makes, by the latency they cost. Defaults are near what AWS and an EKS API server
 * answer in: {@code minMs}..{@code maxMs} uniformly, plus {@code perItemMicros} for every item a read returns (a
 * list of 10,000 pods is slower than one of 10). A Kubernetes list is paged (500 items a page, each page a request), so
 * 20,000 pods cost about 40 x 110 ms; DescribeInstances of 1,000 instances about 0.7 s.
 *
 * <p>A CreateFleet ({@code instant}) answers once every instance it launches has an id, so a larger fleet takes
 * longer: 1-2 s, as for one instance, plus 20 ms for each instance it launched, so a fleet of 100 answers in 3-4 s.
 * AWS publishes no latency for CreateFleet; the 1-2 s is what a single-instance launch takes, and the 20 ms per
 * instance is our assumption, not a measurement: it puts a fleet of 100 at about twice a single launch.
 */
public enum CallKind {
    /** Items: the instances the fleet launched. */
    CREATE_FLEET("ec2", 1_000, 2_000, 20_000),
    DESCRIBE_INSTANCES("ec2", 150, 250, 500),
    TERMINATE_INSTANCES("ec2", 200, 400, 0),
    /** An EC2 request refused before any work (RequestLimitExceeded from an empty token bucket, an outage's 503). */
    EC2_REFUSED("ec2", 20, 80, 0),
    KUBE_LIST("kube", 50, 80, 100),
    KUBE_GET("kube", 20, 50, 0),
    KUBE_PATCH("kube", 20, 50, 0),
    KUBE_EVICT("kube", 40, 60, 0),
    KUBE_DELETE("kube", 20, 50, 0),
    KUBE_EVENT("kube", 20, 50, 0),
    DYNAMO_READ("dynamodb", 5, 10, 0),
    DYNAMO_WRITE("dynamodb", 5, 10, 0),
    DYNAMO_QUERY("dynamodb", 5, 10, 10),
    SQS_SEND("sqs", 15, 25, 0),
    SQS_CHANGE_VISIBILITY("sqs", 15, 25, 0);

    private final String service;
    private final int minMs;
    private final int maxMs;
    private final int perItemMicros;

    CallKind(String service, int minMs, int maxMs, int perItemMicros) {
        this.service = service;
        this.minMs = minMs;
        this.maxMs = maxMs;
        this.perItemMicros = perItemMicros;
    }

    /** {@code ec2}, {@code kube}, {@code dynamodb} or {@code sqs}. */
    public String service() {
        return service;
    }

    int minMs() {
        return minMs;
    }

    int maxMs() {
        return maxMs;
    }

    int perItemMicros() {
        return perItemMicros;
    }

    /** The scenario file's name for the kind: {@code createFleet}, {@code kubeList}... */
    public String yamlName() {
        StringBuilder b = new StringBuilder();
        boolean upper = false;
        for (char c : name().toLowerCase(java.util.Locale.ROOT).toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                b.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return b.toString();
    }
}
