package dev.gantry.kube.objects.dump;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.util.JsonParserDelegate;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * A YAML parser that refuses aliases ({@code *name}). Jackson reads an alias as the anchor's name, a string, which
 * would put the text {@code "labels"} where a map was meant. kubectl never writes aliases, so a dump that has one was
 * edited by hand, and saying so is better than reading it wrong.
 */
final class NoAliases extends JsonParserDelegate {
    private final int lineOffset;
    private final java.nio.file.Path file;

    NoAliases(JsonParser d, java.nio.file.Path file, int lineOffset) {
        super(d);
        this.file = file;
        this.lineOffset = lineOffset;
    }

    @Override
    public JsonToken nextToken() {
        JsonToken t = super.nextToken();
        if (delegate() instanceof YAMLParser y && y.isCurrentAlias()) {
            throw new DumpException(DumpReader.where(file, currentTokenLocation(), lineOffset) + "the YAML alias *" + getString()
                    + " is not read in cluster dumps (kubectl never writes aliases, and Jackson would read it as the text \""
                    + getString() + "\"): write the value out");
        }
        return t;
    }
}
