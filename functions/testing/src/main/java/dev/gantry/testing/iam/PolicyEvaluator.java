package dev.gantry.testing.iam;

import java.util.List;
import java.util.Optional;

/**
 * AWS's evaluation logic for one principal's identity policies (no resource policies, boundaries, SCPs or session
 * policies): an explicit Deny in any applicable statement wins; otherwise an applicable Allow allows; otherwise the
 * request is implicitly denied. A call made of several authorizations is allowed only when each one is.
 */
public final class PolicyEvaluator {
    private final List<Statement> statements;

    public PolicyEvaluator(List<Statement> statements) {
        this.statements = List.copyOf(statements);
    }

    public enum Outcome { ALLOWED, EXPLICIT_DENY, IMPLICIT_DENY }

    /** The outcome for one authorization, with the Sid of the deciding statement when one decided it. */
    public record Decision(Outcome outcome, IamRequest request, Optional<String> sid) {
        public boolean allowed() {
            return outcome == Outcome.ALLOWED;
        }

        @Override
        public String toString() {
            return outcome + " " + request + sid.map(s -> " (statement " + s + ")").orElse("");
        }
    }

    public Decision evaluate(IamRequest request) {
        Statement allow = null;
        for (Statement s : statements) {
            if (s.appliesTo(request)) {
                if (!s.allow()) {
                    return new Decision(Outcome.EXPLICIT_DENY, request, Optional.ofNullable(s.sid()));
                }
                allow = allow == null ? s : allow;
            }
        }
        return allow == null ? new Decision(Outcome.IMPLICIT_DENY, request, Optional.empty())
                : new Decision(Outcome.ALLOWED, request, Optional.ofNullable(allow.sid()));
    }

    /** Every authorization of one call: the first that is not allowed, else empty (the call is allowed). */
    public Optional<Decision> firstDenial(List<IamRequest> authorizations) {
        return authorizations.stream().map(this::evaluate).filter(d -> !d.allowed()).findFirst();
    }
}
