package dev.gantry.testing;

import java.util.Objects;

/**
 * What the {@link AwsStub} answers to one request.
 *
 * @param status      HTTP status
 * @param contentType the Content-Type header
 * @param body        the body text, sent as UTF-8
 */
public record StubResponse(int status, String contentType, String body) {
    public StubResponse {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("not an HTTP status: " + status);
        }
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
    }

    /** A 200 with an XML body, as the query protocols (EC2, STS) answer. */
    public static StubResponse xml(String body) {
        return new StubResponse(200, "text/xml;charset=UTF-8", body);
    }

    /** A 200 with a JSON body in the content type the AWS JSON 1.1 protocol uses (SSM, Pricing). */
    public static StubResponse awsJson(String body) {
        return new StubResponse(200, "application/x-amz-json-1.1", body);
    }

    /** A 200 with a plain JSON body, as REST-JSON services (EKS) answer. */
    public static StubResponse json(String body) {
        return new StubResponse(200, "application/json", body);
    }
}
