package dev.gantry.testing.iam;

import java.util.List;

/**
 * One API call as IAM sees it: who made it and the authorizations AWS would make to serve it.
 *
 * @param principal      the caller; in Gantry's tests the access key id, which is the function's short name
 *                       ({@code provisioner}, {@code sweep}...), or {@code function@cluster} for a test that runs a
 *                       deployment for another cluster than the stub's {@code test-cluster}
 * @param call           the API call, {@code service:Operation} ({@code ec2:CreateFleet})
 * @param authorizations every action-on-resource check the call needs; empty for calls IAM never denies
 *                       ({@code sts:GetCallerIdentity})
 * @param origin         where the recording client or stub was created ({@code SomeTest.method}), so a finding
 *                       names the test; empty when unknown
 */
public record IamCall(String principal, String call, List<IamRequest> authorizations, String origin) {
    public IamCall {
        authorizations = List.copyOf(authorizations);
        origin = origin == null ? "" : origin;
    }

    /** A call of unknown origin. */
    public IamCall(String principal, String call, List<IamRequest> authorizations) {
        this(principal, call, authorizations, "");
    }

    /** The same call recorded at {@code origin}. */
    public IamCall at(String origin) {
        return new IamCall(principal, call, authorizations, origin);
    }
}
