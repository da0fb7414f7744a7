package dev.gantry.config;

import static dev.gantry.config.KarpenterAcceptsTest.CLASS;
import static dev.gantry.config.KarpenterAcceptsTest.lines;
import static dev.gantry.config.KarpenterAcceptsTest.load;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodeClass.CapacityReservationSelectorTerm;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * EC2NodeClass {@code capacityReservationSelectorTerms} read into the NodeClass as Karpenter v1.14.1 defines them (aws
 * {@code pkg/apis/v1/ec2nodeclass.go} CapacityReservationSelectorTerm: id, or tags with ownerID and
 * instanceMatchCriteria; "Each term is ORed together"); their CRD rules are checked in KarpenterRejectsTest and
 * CrdCelRulesTest.
 */
class CapacityReservationTermsTest {

    @Test
    void readsEachTermByIdOrByTagsOwnerAndMatchCriteria() {
        LoadResult r = load(CLASS + """
                  capacityReservationSelectorTerms:
                    - id: cr-0123456789abcdef0
                    - {tags: {team: ml, "kubernetes.io/cluster/demo": "*"}, ownerID: "012345678901"}
                    - instanceMatchCriteria: open
                """);

        assertThat(lines(r.errors())).isEmpty();
        assertThat(r.nodeClasses().getFirst().capacityReservationSelectorTerms()).containsExactly(
                CapacityReservationSelectorTerm.id("cr-0123456789abcdef0"),
                new CapacityReservationSelectorTerm(null, "012345678901", Map.of("team", "ml",
                        "kubernetes.io/cluster/demo", "*"), null),
                new CapacityReservationSelectorTerm(null, null, Map.of(), "open"));
    }

    /**
     * Regression: the terms are honoured (reserved offerings, launches pinned to a reservation), yet every class that
     * wrote them was told "Gantry does not honour capacityReservationSelectorTerms yet; ignored at launch", the warning
     * of the days before reservations landed.
     */
    @Test
    void termsAreHonouredSoNoWarningSaysOtherwise() {
        LoadResult r = load(CLASS + """
                  capacityReservationSelectorTerms:
                    - {tags: {purpose: batch}}
                """);

        assertThat(lines(r.errors())).isEmpty();
        assertThat(lines(r.warnings())).isEmpty();
        assertThat(r.nodeClasses().getFirst().capacityReservationSelectorTerms())
                .containsExactly(new CapacityReservationSelectorTerm(null, null, Map.of("purpose", "batch"), null));
    }

    /** docs tasks/odcrs.md: without terms a NodeClass uses no reservation (open ones are not matched implicitly). */
    @Test
    void aNodeClassWithoutTermsSelectsNoReservation() {
        LoadResult r = load(CLASS);

        assertThat(r.nodeClasses().getFirst().capacityReservationSelectorTerms()).isEmpty();
    }

    @Test
    void anInvalidTermIsReportedOnceAndTheNodeClassDropped() {
        LoadResult r = load(CLASS + """
                  capacityReservationSelectorTerms:
                    - {id: cr-0123, instanceMatchCriteria: open}
                """);

        assertThat(lines(r.errors())).containsExactly("t.yaml:14:12: EC2NodeClass/default/spec.capacityReservationSelectorTerms[0].id: "
                + "id cannot be combined with other fields in a term");
        assertThat(r.nodeClasses()).isEmpty();
    }
}
