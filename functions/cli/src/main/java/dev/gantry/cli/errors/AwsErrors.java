package dev.gantry.cli.errors;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * One line for a failed AWS call, for a person at a terminal: what was missing or refused, and how to fix it. The SDK's
 * own messages run to a thousand characters (every credential provider it tried) or point at a cause they do not show
 * ("See cause for the exact endpoint"); this names the cause.
 */
public final class AwsErrors {
    /** How to give the SDK credentials, named in every "no credentials" line. */
    static final String HOW_TO_PROVIDE = "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE (or --profile) "
            + "naming a profile in ~/.aws/config (aws configure, aws sso login)";

    private AwsErrors() {
    }

    /** The line for {@code e}, without a command prefix. */
    public static String describe(SdkException e) {
        if (e instanceof AwsServiceException s) {
            var d = s.awsErrorDetails();
            String service = d == null || d.serviceName() == null ? "AWS" : d.serviceName();
            String code = d == null || d.errorCode() == null ? "" : d.errorCode() + ": ";
            String message = d == null || d.errorMessage() == null ? firstLine(s.getMessage()) : firstLine(d.errorMessage());
            return service + ": " + code + message;
        }
        String m = e.getMessage() == null ? "" : e.getMessage();
        if (e instanceof SdkClientException && m.startsWith("Unable to load credentials")) {
            return "no AWS credentials: " + HOW_TO_PROVIDE;
        }
        java.util.regex.Matcher profile = java.util.regex.Pattern.compile("(?:contained no credentials for|not find) profile '([^']*)'")
                .matcher(m);
        if (profile.find()) {
            return "no AWS credentials for profile '" + profile.group(1) + "' in ~/.aws/config or ~/.aws/credentials";
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
            if (root instanceof java.net.UnknownHostException) {
                return "cannot reach AWS: the host " + root.getMessage() + " does not resolve (no network, or a region "
                        + "without this service)";
            }
            if (root instanceof java.net.ConnectException || root instanceof java.net.SocketTimeoutException
                    || root instanceof java.net.http.HttpTimeoutException) {
                return "cannot reach AWS: " + root.getClass().getSimpleName() + ": " + firstLine(root.getMessage());
            }
        }
        if (root != e && m.contains("See cause")) {
            return "cannot reach AWS: " + root.getClass().getSimpleName() + ": " + firstLine(root.getMessage());
        }
        return "AWS: " + firstLine(m);
    }

    static String firstLine(String s) {
        if (s == null || s.isBlank()) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).trim();
    }
}
