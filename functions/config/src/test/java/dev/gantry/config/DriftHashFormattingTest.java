package dev.gantry.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.drift.hash.DriftHashes;
import org.junit.jupiter.api.Test;

/**
 * The drift hashes are computed from the parsed values, so how the YAML is written (flow or block style, key order,
 * quoting, a default spelled out or left implicit, a v1beta1 spelling converted) changes neither hash; a changed value
 * does.
 */
class DriftHashFormattingTest {
    private static final String BLOCK = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata:
              name: general
            spec:
              template:
                metadata:
                  labels:
                    team: a
                    tier: web
                spec:
                  nodeClassRef:
                    group: karpenter.k8s.aws
                    kind: EC2NodeClass
                    name: default
                  taints:
                    - key: dedicated
                      value: web
                      effect: NoSchedule
                  requirements:
                    - key: karpenter.sh/capacity-type
                      operator: In
                      values: ["spot"]
            ---
            apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata:
              name: default
            spec:
              role: NodeRole
              amiSelectorTerms:
                - alias: al2023@latest
              subnetSelectorTerms:
                - tags: {karpenter.sh/discovery: demo}
              securityGroupSelectorTerms:
                - tags: {karpenter.sh/discovery: demo}
              tags:
                env: prod
                owner: platform
            """;

    /** The same objects: flow style, other key order, quoted scalars, defaults written out, other requirements. */
    private static final String FLOW = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: general}
            spec:
              weight: 10
              limits: {cpu: "1000"}
              disruption: {consolidationPolicy: WhenEmpty, consolidateAfter: 5m}
              template:
                spec:
                  requirements: [{key: karpenter.sh/capacity-type, operator: In, values: ["spot", "on-demand"]}]
                  expireAfter: 720h
                  taints: [{effect: NoSchedule, key: "dedicated", value: "web"}]
                  nodeClassRef: {name: default, kind: EC2NodeClass, group: karpenter.k8s.aws}
                metadata: {labels: {tier: "web", team: "a"}}
            ---
            apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata: {name: default}
            spec:
              tags: {owner: platform, env: "prod"}
              securityGroupSelectorTerms: [{id: sg-0123}]
              subnetSelectorTerms: [{id: subnet-0123}]
              amiFamily: AL2023
              amiSelectorTerms: [{alias: al2023@latest}]
              metadataOptions: {httpEndpoint: enabled, httpProtocolIPv6: disabled, httpPutResponseHopLimit: 1, httpTokens: required}
              role: "NodeRole"
            """;

    private static String[] hashes(String yaml) {
        LoadResult r = ConfigLoader.loadString("t.yaml", yaml, LoadOptions.DEFAULT);
        assertThat(r.errors()).isEmpty();
        return new String[] {DriftHashes.nodePool(r.nodePools().getFirst()), DriftHashes.nodeClass(r.nodeClasses().getFirst())};
    }

    @Test
    void formattingOrderDefaultsSelectorsAndBehaviouralFieldsChangeNoHash() {
        assertThat(hashes(FLOW)).containsExactly(hashes(BLOCK));
    }

    @Test
    void aChangedLabelOrTagChangesItsHash() {
        String[] base = hashes(BLOCK);
        String[] label = hashes(BLOCK.replace("tier: web", "tier: api"));
        String[] tag = hashes(BLOCK.replace("owner: platform", "owner: team-b"));
        assertThat(label[0]).isNotEqualTo(base[0]);
        assertThat(label[1]).isEqualTo(base[1]);
        assertThat(tag[0]).isEqualTo(base[0]);
        assertThat(tag[1]).isNotEqualTo(base[1]);
    }
}
