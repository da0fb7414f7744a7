package dev.gantry.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.testing.iam.IamCall;
import dev.gantry.testing.iam.IamRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The IAM view of S3, Secrets Manager and Lambda Invoke requests, as SigV4-signed requests reach the stub. */
class AwsStubIamServicesTest {
    private static final String SECRET = "arn:aws:secretsmanager:us-east-1:123456789012:secret:gantry-token-AbCdEf";
    private final AwsStub stub = AwsStub.start();
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void stop() {
        http.close();
        stub.close();
    }

    private IamCall send(String principal, String service, String method, String pathAndQuery, String target,
                         String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(stub.endpoint() + pathAndQuery))
                .header("Authorization", "AWS4-HMAC-SHA256 Credential=" + principal + "/20250601/us-east-1/" + service
                        + "/aws4_request, SignedHeaders=host, Signature=0")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (target != null) {
            b.header("X-Amz-Target", target).header("Content-Type", "application/x-amz-json-1.1");
        }
        HttpResponse<String> response = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isLessThan(400);
        return stub.iamCalls().getLast();
    }

    @Test
    void getObjectIsAuthorizedOnTheObjectAndAListingOnTheBucket() throws Exception {
        stub.onPath("GET", "/gantry-config/", r -> new StubResponse(200, "application/yaml", "a: 1"));
        IamCall get = send("provisioner", "s3", "GET", "/gantry-config/clusters/prod/gantry.yaml", null, null);
        assertThat(get.principal()).isEqualTo("provisioner");
        assertThat(get.authorizations()).extracting(IamRequest::action, IamRequest::resource)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("s3:GetObject",
                        "arn:aws:s3:::gantry-config/clusters/prod/gantry.yaml"));

        stub.onPath("GET", "/gantry-config", r -> new StubResponse(200, "application/xml", "<ListBucketResult/>"));
        IamCall list = send("provisioner", "s3", "GET", "/gantry-config?list-type=2&prefix=clusters", null, null);
        assertThat(list.authorizations()).extracting(IamRequest::action, IamRequest::resource)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("s3:ListBucket", "arn:aws:s3:::gantry-config"));
    }

    @Test
    void getSecretValueIsAuthorizedOnTheSecretsFullArnWhateverNamesIt() throws Exception {
        stub.onTarget("secretsmanager.GetSecretValue", r -> StubResponse.awsJson("{\"SecretString\":\"t\"}"));
        for (String id : java.util.List.of(SECRET, "gantry-token",
                "arn:aws:secretsmanager:us-east-1:123456789012:secret:gantry-token")) {
            IamCall call = send("webhook", "secretsmanager", "POST", "/", "secretsmanager.GetSecretValue",
                    "{\"SecretId\":\"" + id + "\"}");
            assertThat(call.call()).isEqualTo("secretsmanager:GetSecretValue");
            assertThat(call.authorizations()).as(id).singleElement()
                    .satisfies(a -> assertThat(a.action()).isEqualTo("secretsmanager:GetSecretValue"))
                    .satisfies(a -> assertThat(a.resource()).isEqualTo(SECRET));
        }
    }

    @Test
    void invokeIsAuthorizedOnTheFunctionArnAsQualifiedAsTheRequest() throws Exception {
        stub.onPath("POST", "/2015-03-31/functions/", r -> new StubResponse(200, "application/json", "{}"));
        String fn = "arn:aws:lambda:us-east-1:123456789012:function:sweep";
        assertThat(invoke(fn.replace(":", "%3A") + "%3Alive")).isEqualTo(fn + ":live");
        assertThat(invoke(fn.replace(":", "%3A"))).isEqualTo(fn);
        assertThat(invoke("sweep")).isEqualTo(fn);
        assertThat(invoke("sweep?Qualifier=live")).isEqualTo(fn + ":live");
        assertThat(invoke("123456789012%3Afunction%3Asweep%3A7")).isEqualTo(fn + ":7");
    }

    private String invoke(String nameAndQuery) throws Exception {
        int q = nameAndQuery.indexOf('?');
        String path = q < 0 ? nameAndQuery + "/invocations" : nameAndQuery.substring(0, q) + "/invocations"
                + nameAndQuery.substring(q);
        IamCall call = send("attach", "lambda", "POST", "/2015-03-31/functions/" + path, null, "{}");
        assertThat(call.call()).isEqualTo("lambda:Invoke");
        assertThat(call.authorizations()).singleElement().extracting(IamRequest::action)
                .isEqualTo("lambda:InvokeFunction");
        return call.authorizations().getFirst().resource();
    }

    @Test
    void aCallNamesTheTestThatStartedTheStub() throws Exception {
        stub.onTarget("secretsmanager.GetSecretValue", r -> StubResponse.awsJson("{\"SecretString\":\"t\"}"));
        IamCall call = send("webhook", "secretsmanager", "POST", "/", "secretsmanager.GetSecretValue",
                "{\"SecretId\":\"" + SECRET + "\"}");
        assertThat(call.origin()).startsWith(AwsStubIamServicesTest.class.getName() + ".");
    }
}
