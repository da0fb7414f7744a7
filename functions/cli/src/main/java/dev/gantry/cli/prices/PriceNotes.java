package dev.gantry.cli.prices;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** Where prices came from, added to a command's output: a line per region in a table, a {@code prices} array in JSON. */
public final class PriceNotes {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private PriceNotes() {
    }

    public static String lines(List<PriceNote> notes) {
        StringBuilder b = new StringBuilder();
        notes.forEach(n -> b.append(n.line()).append('\n'));
        return b.toString();
    }

    /** {@code document} (a JSON object) with a {@code prices} field. */
    public static String withPrices(String document, List<PriceNote> notes) {
        try {
            ObjectNode o = (ObjectNode) JSON.readTree(document);
            o.set("prices", JSON.valueToTree(notes.stream().map(PriceNote::json).toList()));
            return JSON.writeValueAsString(o) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
