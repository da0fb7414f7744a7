package dev.gantry.simulator.bill;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.LocalDate;

/**
 * AWS's public list prices for what Gantry itself uses, in one region and currency, as of a date: the table in
 * {@code bill/unit-prices.json}, whose README names each price's source and the billing rules the counts follow.
 * Every price is per one unit (a GB-second, a request, a request unit, an event), not per million.
 *
 * @param region               the prices' region
 * @param currency             their currency
 * @param asOf                 the date they were read
 * @param lambdaArchitecture   the architecture the duration price is for (the deployed one, arm64)
 * @param lambdaGbSecond       Lambda duration
 * @param lambdaRequest        one Lambda invocation
 * @param sqsStandardRequest   one request (or 64 KB chunk) on a standard queue
 * @param sqsFifoRequest       one request (or 64 KB chunk) on a FIFO queue
 * @param sqsChunkBytes        the payload size one request covers
 * @param dynamoWriteUnit      one on-demand write request unit
 * @param dynamoReadUnit       one on-demand read request unit
 * @param eventBridgeCustom    one custom event (AWS service events to the default bus are free)
 */
public record UnitPrices(String region, String currency, LocalDate asOf, String lambdaArchitecture, double lambdaGbSecond,
                         double lambdaRequest, double sqsStandardRequest, double sqsFifoRequest, int sqsChunkBytes,
                         double dynamoWriteUnit, double dynamoReadUnit, double eventBridgeCustom) {
    private static final double MILLION = 1_000_000;
    private static final String RESOURCE = "/bill/unit-prices.json";

    /** The built-in table. */
    public static UnitPrices builtIn() {
        try (InputStream in = UnitPrices.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the simulator's jar");
            }
            JsonNode j = new ObjectMapper().readTree(in);
            JsonNode l = j.required("lambda");
            JsonNode s = j.required("sqs");
            JsonNode d = j.required("dynamodb");
            JsonNode e = j.required("eventbridge");
            return new UnitPrices(j.required("region").asText(), j.required("currency").asText(),
                    LocalDate.parse(j.required("asOf").asText()), l.required("architecture").asText(),
                    l.required("perGbSecond").asDouble(), l.required("perMillionRequests").asDouble() / MILLION,
                    s.required("standardPerMillionRequests").asDouble() / MILLION,
                    s.required("fifoPerMillionRequests").asDouble() / MILLION, s.required("chunkBytes").asInt(),
                    d.required("perMillionWriteUnits").asDouble() / MILLION, d.required("perMillionReadUnits").asDouble() / MILLION,
                    e.required("customEventsPerMillion").asDouble() / MILLION);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
