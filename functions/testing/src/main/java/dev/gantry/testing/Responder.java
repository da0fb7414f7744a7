package dev.gantry.testing;

/**
 * Programs the {@link AwsStub}'s answer to one kind of request. It runs on the stub's server thread, so it must not
 * block on the client that is waiting for the answer.
 */
@FunctionalInterface
public interface Responder {
    StubResponse respond(RecordedRequest request);
}
