package dev.gantry.simulator.faults;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import java.util.List;
import java.util.Optional;

/**
 * The provisioner's view of EC2 with a crash switch: once armed, the next launches really happen at EC2 and then the
 * caller dies before it can record the instance (the Lambda timed out or was killed between CreateFleet and the store
 * write). The invocation is dead from then on: every later call in it fails too, until {@link #revive()} starts the
 * next one. That run must find the claims still Launching and resume them without second instances.
 */
public final class CrashAfterLaunch implements CloudProvider {
    /** The provisioner's invocation died. */
    static final class Crash extends RuntimeException {
        Crash(String claim) {
            super("simulated crash after CreateFleet for nodeclaim/" + claim + ", before the store write");
        }
    }

    private final CloudProvider cloud;
    private int armed;
    private int crashes;
    private String dead;

    public CrashAfterLaunch(CloudProvider cloud) {
        this.cloud = cloud;
    }

    public void arm(int count) {
        armed += count;
    }

    /** A new invocation begins. */
    public void revive() {
        dead = null;
    }

    private void checkAlive() {
        if (dead != null) {
            throw new Crash(dead);
        }
    }

    public int crashes() {
        return crashes;
    }

    @Override
    public LaunchResult launch(LaunchRequest request) {
        return launch(request, prepare(request));
    }

    @Override
    public LaunchParameters prepare(LaunchRequest request) {
        checkAlive();
        return cloud.prepare(request);
    }

    @Override
    public LaunchResult launch(LaunchRequest request, LaunchParameters parameters) {
        checkAlive();
        LaunchResult r = cloud.launch(request, parameters);
        if (armed > 0) {
            armed--;
            crashes++;
            dead = request.clientToken();
            throw new Crash(dead);
        }
        return r;
    }

    @Override
    public void terminate(List<String> instanceIds) {
        checkAlive();
        cloud.terminate(instanceIds);
    }

    @Override
    public List<CloudInstance> listInstances() {
        checkAlive();
        return cloud.listInstances();
    }

    @Override
    public Optional<CloudInstance> describe(String instanceId) {
        checkAlive();
        return cloud.describe(instanceId);
    }
}
