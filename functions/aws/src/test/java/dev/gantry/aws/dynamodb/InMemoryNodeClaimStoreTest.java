package dev.gantry.aws.dynamodb;

import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaimStore;

/** The core's in-memory store against the same contract as DynamoDB, so the simulator behaves like production. */
class InMemoryNodeClaimStoreTest extends NodeClaimStoreContract {
    @Override
    protected NodeClaimStore newStore() {
        return new InMemoryNodeClaimStore();
    }
}
