package dev.gantry.infra;

import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.GlobalSecondaryIndexProps;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.ProjectionType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.dynamodb.TableEncryption;
import software.constructs.Construct;

/**
 * The state table: one item per NodeClaim (and per in-flight operation), keyed {@code pk = <cluster>},
 * {@code sk = nodeclaim#<name>}, with an {@code instanceId} index so EC2 events find their claim, and TTL on
 * {@code ttl} for records that only need to outlive a retry window.
 */
public final class StateTable extends Construct {
    public static final String INSTANCE_ID_INDEX = "byInstanceId";

    private final Table table;

    public StateTable(Construct scope, String id, RemovalPolicy removal) {
        super(scope, id);
        table = Table.Builder.create(this, "Table")
                .partitionKey(string("pk"))
                .sortKey(string("sk"))
                // Load is bursty (a scale-up, then nothing for hours): on-demand costs nothing idle.
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .pointInTimeRecoverySpecification(PointInTimeRecoverySpecification.builder()
                        .pointInTimeRecoveryEnabled(true).build())
                .encryption(TableEncryption.AWS_MANAGED)
                .timeToLiveAttribute("ttl")
                .removalPolicy(removal)
                .build();
        table.addGlobalSecondaryIndex(GlobalSecondaryIndexProps.builder()
                .indexName(INSTANCE_ID_INDEX)
                .partitionKey(string("instanceId"))
                // ALL: an interruption handler needs the whole claim, and a second read would double its latency.
                .projectionType(ProjectionType.ALL)
                .build());
    }

    private static Attribute string(String name) {
        return Attribute.builder().name(name).type(AttributeType.STRING).build();
    }

    public Table table() {
        return table;
    }

    /** The index ARN, named exactly so IAM grants need no {@code index/*} wildcard. */
    public String instanceIdIndexArn() {
        return table.getTableArn() + "/index/" + INSTANCE_ID_INDEX;
    }
}
