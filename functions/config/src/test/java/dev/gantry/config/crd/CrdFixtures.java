package dev.gantry.config.crd;

import java.util.Map;

/** Small valid objects of the three CRDs, written as users write them, with the parts tests vary as arguments. */
final class CrdFixtures {
    static final String REF = "{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}";
    static final String SPOT = "{key: karpenter.sh/capacity-type, operator: In, values: [spot]}";

    private CrdFixtures() {
    }

    /** A NodePool with the given template labels (flow mapping, or empty), requirements and further spec lines. */
    static String pool(String labels, String nodeClassRef, String requirements, String extraSpec) {
        return """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: default}
                spec:
                  template:
                """ + (labels.isEmpty() ? "" : "    metadata: {labels: " + labels + "}\n") + """
                    spec:
                      nodeClassRef: %s
                      requirements: [%s]
                """.formatted(nodeClassRef, requirements) + extraSpec;
    }

    static String pool(String extraSpec) {
        return pool("", REF, SPOT, extraSpec);
    }

    static String poolRequirements(String requirements) {
        return pool("", REF, requirements, "");
    }

    static String claim(String nodeClassRef, String requirements) {
        return """
                apiVersion: karpenter.sh/v1
                kind: NodeClaim
                metadata: {name: default-x7k2p, labels: {karpenter.sh/nodepool: default}}
                spec:
                  nodeClassRef: %s
                  requirements: [%s]
                  resources: {requests: {cpu: 1500m, memory: 3Gi, pods: "5"}}
                """.formatted(nodeClassRef, requirements);
    }

    static String claimRequirements(String requirements) {
        return claim(REF, requirements);
    }

    /** An EC2NodeClass with the given amiSelectorTerms (flow list) and identity line, and further spec lines. */
    static String nodeClass(String amiTerms, String identity, String extraSpec) {
        return """
                apiVersion: karpenter.k8s.aws/v1
                kind: EC2NodeClass
                metadata: {name: default}
                spec:
                  amiSelectorTerms: %s
                  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                """.formatted(amiTerms) + (identity.isEmpty() ? "" : "  " + identity + "\n") + extraSpec;
    }

    static String nodeClass(String extraSpec) {
        return nodeClass("[{alias: al2023@latest}]", "role: KarpenterNodeRole", extraSpec);
    }

    /** Replaces one top-level spec list of the default EC2NodeClass. */
    static String nodeClassWith(String field, String flowValue) {
        return nodeClass("").replaceFirst("(?m)^  " + field + ": .*$", "  " + field + ": " + java.util.regex.Matcher.quoteReplacement(flowValue));
    }

    static Map<String, Object> object(String yaml) {
        return Yaml.one(yaml);
    }
}
