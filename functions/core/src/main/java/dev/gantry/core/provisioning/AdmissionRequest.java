package dev.gantry.core.provisioning;

/**
 * The fields of a Kubernetes AdmissionReview v1 request that decide whether it is worth a hint. Built by the webhook
 * handler from the JSON; nothing here is trusted beyond making a hint.
 *
 * @param kind             {@code request.kind.kind}: Pod or Node
 * @param subResource      {@code request.subResource}, empty when absent ({@code status} for pods/status)
 * @param operation        CREATE, UPDATE, DELETE or CONNECT
 * @param objectUid        {@code metadata.uid} of {@code object}, or of {@code oldObject} on DELETE; may be empty
 * @param nodeName         the pod's {@code spec.nodeName}, empty when unbound (or not a pod)
 * @param podUnschedulable the pod's PodScheduled condition is False with reason Unschedulable
 */
public record AdmissionRequest(String uid, String kind, String subResource, String operation, String namespace,
                               String name, String objectUid, String nodeName, boolean dryRun, boolean podUnschedulable) {
    public AdmissionRequest {
        uid = nullToEmpty(uid);
        kind = nullToEmpty(kind);
        subResource = nullToEmpty(subResource);
        operation = nullToEmpty(operation);
        namespace = nullToEmpty(namespace);
        name = nullToEmpty(name);
        objectUid = nullToEmpty(objectUid);
        nodeName = nullToEmpty(nodeName);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
