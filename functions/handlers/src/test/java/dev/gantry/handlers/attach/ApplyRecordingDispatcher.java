package dev.gantry.handlers.attach;

import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;

/**
 * The fabric8 mock server in CRUD mode, plus server-side apply, which the mock refuses (415). An apply (PATCH with
 * {@code application/apply-patch+yaml}) is recorded and answered 200 with the body sent, unless the test declared that
 * another manager owns a field the body sets, with a different value: then 409 with the {@code FieldManagerConflict}
 * causes a real API server sends. Not modelled: stored state of applied objects, and field ownership beyond what the
 * test declares (a field owned by two managers with one value is never a conflict on a real server either).
 */
final class ApplyRecordingDispatcher extends KubernetesMixedDispatcher {
    /** One apply the server received. */
    record Apply(String path, String contentType, String body) {
    }

    final List<Apply> applies = new ArrayList<>();
    /** Object name -> (field path such as {@code .spec.limits.cpu} -> owning manager). */
    final Map<String, Map<String, String>> owned = new HashMap<>();

    ApplyRecordingDispatcher(Map<ServerRequest, Queue<ServerResponse>> responses) {
        super(responses);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String type = request.getHeader("Content-Type");
        if (!"PATCH".equals(request.getMethod()) || type == null || !type.startsWith("application/apply-patch")) {
            return super.dispatch(request);
        }
        String body = request.getUtf8Body();
        synchronized (applies) {
            applies.add(new Apply(request.getPath(), type, body));
        }
        String name = request.getPath().replaceAll("\\?.*", "").replaceAll(".*/", "");
        List<String> causes = new ArrayList<>();
        owned.getOrDefault(name, Map.of()).forEach((field, manager) -> {
            String leaf = field.substring(field.lastIndexOf('.') + 1);
            if (body.contains("\"" + leaf + "\"")) {
                causes.add("{\"reason\":\"FieldManagerConflict\",\"message\":\"conflict with \\\"" + manager
                        + "\\\" using karpenter.sh/v1\",\"field\":\"" + field + "\"}");
            }
        });
        if (causes.isEmpty()) {
            return new MockResponse().setResponseCode(200).setBody(body).addHeader("Content-Type", "application/json");
        }
        String status = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"Apply failed with "
                + causes.size() + " conflict(s)\",\"reason\":\"Conflict\",\"details\":{\"causes\":[" + String.join(",", causes)
                + "]},\"code\":409}";
        return new MockResponse().setResponseCode(409).setBody(status).addHeader("Content-Type", "application/json");
    }
}
