package dev.gantry.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gantry.testing.iam.IamCall;
import dev.gantry.testing.iam.IamCallLog;
import dev.gantry.testing.iam.TestOrigin;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local HTTP server that answers the real SDK v2 clients of EC2 and STS (query protocol), SSM and Pricing (AWS
 * JSON) and EKS (REST-JSON) in their wire formats, and records every request in arrival order.
 *
 * <p>Point a client at {@link #endpoint()} with {@code endpointOverride}. Answers are found in this order: a responder
 * for the query {@code Action} ({@link #on}), for the {@code X-Amz-Target} header ({@link #onTarget}), then the
 * longest matching path prefix ({@link #onPath}). EC2 actions have defaults backed by {@link #ec2()}, an in-memory
 * model; STS GetCallerIdentity, SSM GetParameter (the EKS AL2023 AMI parameters), Pricing GetProducts and EKS
 * DescribeCluster ({@value Ec2State#CLUSTER}) have canned defaults from {@link JsonResponses}; anything unmatched gets
 * an EC2-style 400 {@code InvalidAction}. Responders run on the server thread. Each request is also turned into
 * the IAM authorizations it needs ({@link #iamCalls()}), for the contract test against the synthesized policies.
 * Start one per test class or per test (start-up is a few milliseconds).
 */
public final class AwsStub implements AutoCloseable {
    private final HttpServer server;
    private final Ec2State ec2;
    private final Map<String, Responder> byAction = new ConcurrentHashMap<>();
    private final Map<String, Responder> byTarget = new ConcurrentHashMap<>();
    private final Map<String, Responder> byPath = new ConcurrentHashMap<>();
    private final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();
    private final List<IamCall> iamCalls = new CopyOnWriteArrayList<>();
    private final IamAuthorizations authorizations;
    private final String origin = TestOrigin.current();

    private AwsStub(HttpServer server, Ec2State ec2, Clock clock) {
        this.server = server;
        this.ec2 = ec2;
        this.authorizations = new IamAuthorizations(ec2);
        byAction.putAll(new Ec2Actions(ec2, clock).responders());
        byAction.put("GetCallerIdentity", JsonResponses.stsCallerIdentity());
        byTarget.put("AmazonSSM.GetParameter", JsonResponses.ssmParameters(JsonResponses.defaultSsmParameters()));
        byTarget.put("AWSPriceListService.GetProducts", JsonResponses.pricingProducts(
                Map.of("m5.large", "0.0960000000", "m5.xlarge", "0.1920000000", "c5.large", "0.0850000000",
                        "m6g.large", "0.0770000000")));
        byPath.put("GET /clusters/", JsonResponses.eksCluster(JsonResponses.EksCluster.defaults()));
        server.createContext("/", this::handle);
        server.start();
    }

    /** A stub over {@link Ec2State#withDefaults()} and the system clock. */
    public static AwsStub start() {
        return start(Ec2State.withDefaults(), Clock.systemUTC());
    }

    /** A stub over the given EC2 model; {@code clock} stamps launch and creation times. */
    public static AwsStub start(Ec2State ec2, Clock clock) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            return new AwsStub(server, ec2, clock);
        } catch (IOException e) {
            throw new UncheckedIOException("could not bind the AWS stub", e);
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The EC2 model behind the default EC2 answers: seed it, inject launch errors, read what was launched. */
    public Ec2State ec2() {
        return ec2;
    }

    /** Answers the query-protocol {@code Action} (EC2, STS) with {@code responder}, replacing any default. */
    public AwsStub on(String action, Responder responder) {
        byAction.put(action, responder);
        return this;
    }

    /** Answers a JSON-protocol {@code X-Amz-Target}, such as {@code AmazonSSM.GetParameter}. */
    public AwsStub onTarget(String xAmzTarget, Responder responder) {
        byTarget.put(xAmzTarget, responder);
        return this;
    }

    /** Answers REST requests ({@code GET /clusters/}) whose path starts with {@code pathPrefix}. */
    public AwsStub onPath(String method, String pathPrefix, Responder responder) {
        byPath.put(method.toUpperCase(Locale.ROOT) + " " + pathPrefix, responder);
        return this;
    }

    /** Every request so far, in arrival order. */
    public List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    /** The requests whose {@link RecordedRequest#action()} is {@code action} (an Action, a target or "GET /path"). */
    public List<RecordedRequest> requests(String action) {
        return requests.stream().filter(r -> r.action().equals(action)).toList();
    }

    /** The latest request for {@code action}. @throws AssertionError if there was none */
    public RecordedRequest lastRequest(String action) {
        List<RecordedRequest> matching = requests(action);
        if (matching.isEmpty()) {
            throw new AssertionError("no " + action + " request; received: "
                    + requests.stream().map(RecordedRequest::action).toList());
        }
        return matching.getLast();
    }

    /**
     * Every request served so far as IAM sees it: the caller (the access key id of its SigV4 credential) and the
     * authorizations AWS would make to serve it. Requests answered with an error are left out (they fail in AWS
     * too). Also appended to {@link IamCallLog} when a build asks for it.
     */
    public List<IamCall> iamCalls() {
        return List.copyOf(iamCalls);
    }

    /** Forgets the recorded requests (not the responders or the EC2 model). */
    public void clearRequests() {
        requests.clear();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            RecordedRequest request = record(exchange);
            requests.add(request);
            // Read before the request acts: a terminated instance is authorized by the tags it had.
            IamCall call = authorizations.of(request).at(origin);
            StubResponse response;
            try {
                response = route(request).map(r -> r.respond(request))
                        .orElseGet(() -> Ec2Responses.error("InvalidAction", "The action " + request.action()
                                + " is not valid for this web service (no responder in the stub)."));
            } catch (RuntimeException e) {
                response = new StubResponse(500, "text/plain", "stub responder failed: " + e);
            }
            // A request the stub refuses (an unknown id, a name in use) fails in AWS too, whatever IAM says.
            if (response.status() < 400) {
                iamCalls.add(call);
                IamCallLog.append(call);
            }
            byte[] body = response.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", response.contentType());
            exchange.getResponseHeaders().set("x-amzn-RequestId", java.util.UUID.randomUUID().toString());
            exchange.sendResponseHeaders(response.status(), body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private Optional<Responder> route(RecordedRequest request) {
        String action = request.param("Action");
        if (action != null) {
            return Optional.ofNullable(byAction.get(action));
        }
        Optional<String> target = request.target();
        if (target.isPresent()) {
            return Optional.ofNullable(byTarget.get(target.get()));
        }
        String key = request.method() + " " + request.path();
        return byPath.entrySet().stream().filter(e -> key.startsWith(e.getKey()))
                .max(Comparator.comparingInt(e -> e.getKey().length())).map(Map.Entry::getValue);
    }

    private static RecordedRequest record(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, List<String>> headers = new TreeMap<>();
        exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
        TreeMap<String, String> params = new TreeMap<>();
        decodeForm(exchange.getRequestURI().getRawQuery(), params);
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType != null && contentType.startsWith("application/x-www-form-urlencoded")) {
            decodeForm(body, params);
        }
        return new RecordedRequest(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), headers, params, body);
    }

    private static void decodeForm(String form, Map<String, String> into) {
        if (form == null || form.isEmpty()) {
            return;
        }
        for (String pair : form.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            into.put(URLDecoder.decode(name, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
    }
}
