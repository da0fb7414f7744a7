package dev.gantry.simulator;

import dev.gantry.simulator.bill.SelfCost;
import dev.gantry.simulator.bill.SelfUsage;
import dev.gantry.simulator.bill.UnitPrices;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.PriceBook;
import dev.gantry.simulator.deployed.EventSources;
import dev.gantry.simulator.runtime.FunctionStats;
import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.world.aws.EventBridge;
import dev.gantry.simulator.world.aws.SimulatedQueue;
import dev.gantry.simulator.world.aws.SimulatedStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Wires the bill's meters into a simulated world, and prices what they counted at the end of a run. */
final class SelfCostMeters {
    /** The controller users compare Gantry with: Karpenter's default two replicas, here on m5.large on-demand. */
    static final int KARPENTER_REPLICAS = 2;
    static final String KARPENTER_NODE = "m5.large";
    /**
     * The webhook is called synchronously by the simulated API server, outside the Lambda runtime's clock, so its
     * duration is estimated: a warm invocation that parses one AdmissionReview and sends at most one SQS message.
     */
    static final long WEBHOOK_BILLED_MILLIS = 25;

    private SelfCostMeters() {
    }

    static void attach(SelfUsage usage, List<SimulatedQueue> queues, SimulatedStore store, EventBridge bus,
                              EventSources sources) {
        int chunk = UnitPrices.builtIn().sqsChunkBytes();
        queues.forEach(q -> q.meter(usage, chunk));
        store.meter(usage);
        bus.meter(usage);
        sources.meter(usage);
    }

    /**
     * The run's bill at the built-in unit prices, with the deployed functions' memory (the webhook's requests at
     * {@value #WEBHOOK_BILLED_MILLIS} ms each), beside two m5.large on-demand
     * nodes priced from the built-in EC2 catalogue (the scenario's region, else us-east-1's).
     */
    static SelfCost bill(SelfUsage usage, Map<String, FunctionStats> invoked, long webhookRequests, Scenario scenario) {
        Map<String, FunctionStats> functions = new LinkedHashMap<>(invoked);
        FunctionStats webhook = new FunctionStats();
        webhook.invocations = webhookRequests;
        webhook.billedMillis = webhookRequests * WEBHOOK_BILLED_MILLIS;
        functions.put("webhook", webhook);
        PriceBook book = BuiltInCatalog.priceBook();
        double node = book.onDemand(scenario.cluster().region(), KARPENTER_NODE)
                .orElseGet(() -> book.onDemand(PriceBook.FALLBACK_REGION, KARPENTER_NODE).orElseThrow());
        return SelfCost.of(UnitPrices.builtIn(), EventSources.DEPLOYED, functions, usage, scenario.run().duration(),
                new SelfCost.Controller(KARPENTER_REPLICAS, KARPENTER_NODE, node));
    }
}
