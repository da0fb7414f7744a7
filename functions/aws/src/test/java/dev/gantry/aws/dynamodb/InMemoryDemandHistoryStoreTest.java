package dev.gantry.aws.dynamodb;

import dev.gantry.core.headroom.DemandHistoryStore;
import dev.gantry.core.headroom.InMemoryDemandHistoryStore;

class InMemoryDemandHistoryStoreTest extends DemandHistoryStoreContract {
    @Override
    protected DemandHistoryStore newStore() {
        return new InMemoryDemandHistoryStore();
    }
}
