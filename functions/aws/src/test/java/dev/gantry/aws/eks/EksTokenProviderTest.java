package dev.gantry.aws.eks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.testing.MutableClock;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

class EksTokenProviderTest {
    private static final Instant T0 = Instant.parse("2025-06-01T12:00:00Z");
    private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

    private final MutableClock clock = new MutableClock(T0);
    private final EksTokenProvider tokens = new EksTokenProvider("prod-cluster", Region.EU_WEST_1,
            StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", SECRET)), clock);

    private static URI decode(String token) {
        assertThat(token).startsWith("k8s-aws-v1.").doesNotContain("=");
        String encoded = token.substring("k8s-aws-v1.".length());
        assertThat(encoded).matches("[A-Za-z0-9_-]+");
        return URI.create(new String(Base64.getUrlDecoder().decode(encoded), StandardCharsets.UTF_8));
    }

    private static Map<String, String> query(URI url) {
        Map<String, String> params = new TreeMap<>();
        for (String pair : url.getRawQuery().split("&")) {
            int eq = pair.indexOf('=');
            params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return params;
    }

    @Test
    void presignsGetCallerIdentityOnTheRegionalStsEndpointWithTheClusterHeaderSigned() {
        URI url = decode(tokens.get());
        Map<String, String> q = query(url);

        assertThat(url.getScheme() + "://" + url.getHost() + url.getPath()).isEqualTo("https://sts.eu-west-1.amazonaws.com/");
        assertThat(q).containsEntry("Action", "GetCallerIdentity").containsEntry("Version", "2011-06-15")
                .containsEntry("X-Amz-Algorithm", "AWS4-HMAC-SHA256")
                .containsEntry("X-Amz-Expires", "60")
                .containsEntry("X-Amz-Date", "20250601T120000Z")
                .containsEntry("X-Amz-Credential", "AKIDEXAMPLE/20250601/eu-west-1/sts/aws4_request")
                .containsKey("X-Amz-Signature");
        assertThat(q.get("X-Amz-SignedHeaders").split(";")).containsExactly("host", "x-k8s-aws-id");
    }

    @Test
    void signsWhatStsWillVerify() throws Exception {
        URI url = decode(tokens.get());
        Map<String, String> q = query(url);

        // SigV4 recomputed independently, as STS does: the authenticator replays the URL with x-k8s-aws-id set.
        StringBuilder canonicalQuery = new StringBuilder();
        for (String rawPair : new TreeMap<>(rawQuery(url)).entrySet().stream()
                .filter(e -> !e.getKey().equals("X-Amz-Signature")).map(e -> e.getKey() + "=" + e.getValue()).toList()) {
            canonicalQuery.append(canonicalQuery.isEmpty() ? "" : "&").append(rawPair);
        }
        String canonicalRequest = String.join("\n", "GET", "/", canonicalQuery,
                "host:sts.eu-west-1.amazonaws.com", "x-k8s-aws-id:prod-cluster", "", "host;x-k8s-aws-id", sha256Hex(""));
        String toSign = String.join("\n", "AWS4-HMAC-SHA256", "20250601T120000Z",
                "20250601/eu-west-1/sts/aws4_request", sha256Hex(canonicalRequest));
        byte[] key = hmac(("AWS4" + SECRET).getBytes(StandardCharsets.UTF_8), "20250601");
        for (String part : new String[] {"eu-west-1", "sts", "aws4_request"}) {
            key = hmac(key, part);
        }

        assertThat(q.get("X-Amz-Signature")).isEqualTo(HexFormat.of().formatHex(hmac(key, toSign)));
    }

    private static Map<String, String> rawQuery(URI url) {
        Map<String, String> params = new TreeMap<>();
        for (String pair : url.getRawQuery().split("&")) {
            int eq = pair.indexOf('=');
            params.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return params;
    }

    private static String sha256Hex(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    private static byte[] hmac(byte[] key, String data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void reusesTheTokenUntilFourteenMinutesHavePassed() {
        String first = tokens.get();

        clock.advance(Duration.ofMinutes(14).minusSeconds(1));

        assertThat(tokens.get()).isSameAs(first);
    }

    @Test
    void signsANewTokenOnceFourteenMinutesHavePassed() {
        String first = tokens.get();

        clock.advance(Duration.ofMinutes(14));
        String second = tokens.get();

        assertThat(second).isNotEqualTo(first);
        assertThat(query(decode(second))).containsEntry("X-Amz-Date", "20250601T121400Z");
        clock.advance(Duration.ofMinutes(13));
        assertThat(tokens.get()).isSameAs(second);
    }

    @Test
    void carriesTheSessionTokenOfTemporaryCredentials() {
        EksTokenProvider withSession = new EksTokenProvider("prod-cluster", Region.EU_WEST_1,
                StaticCredentialsProvider.create(AwsSessionCredentials.create("ASIAEXAMPLE", SECRET, "session/token+1")),
                clock);

        assertThat(query(decode(withSession.get()))).containsEntry("X-Amz-Security-Token", "session/token+1")
                .containsEntry("X-Amz-Credential", "ASIAEXAMPLE/20250601/eu-west-1/sts/aws4_request");
    }

    @Test
    void isAboutAsLongAsTheCliToken() {
        assertThat(tokens.get().length()).isBetween(300, 700);
    }
}
