package dev.gantry.core.config;

import java.util.List;

/**
 * The cluster's configuration objects, listed from the API server: every {@code karpenter.sh/v1} NodePool, every
 * {@code karpenter.k8s.aws/v1} EC2NodeClass, every {@code autoscaling.x-k8s.io/v1beta1} CapacityBuffer (all
 * namespaces), and the objects those buffers refer to.
 *
 * <p>Read-only, and safe to call on every run: it reads the objects, it never parses them ({@link ConfigSource} does).
 *
 * <p>Errors: a kind whose CRD is not installed is no objects of that kind, not an error. A buffer's reference to an
 * object that does not exist is left out. Any other failed call (unreachable, 403, 5xx) is a
 * {@link dev.gantry.core.cluster.ClusterException}: never a partial list, which would read as deleted objects.
 */
public interface ConfigObjects {
    List<ConfigObject> list();
}
