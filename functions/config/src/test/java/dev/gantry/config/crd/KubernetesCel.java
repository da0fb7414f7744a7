package dev.gantry.config.crd;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The part of the API server's CEL environment for {@code x-kubernetes-validations} that Karpenter's CRDs use, built
 * on cel-java: the standard macros and functions, the strings extension ({@code split}), and Kubernetes' regex library
 * function {@code string.find(regex)}, which cel-java lacks and this class supplies (with java.util.regex, which agrees
 * with RE2 on the patterns these CRDs use; no match gives the empty string, as in Kubernetes).
 *
 * <p>Not modelled: the API server types {@code self} from the schema and rejects a CRD whose rules do not type-check or
 * exceed the cost budget; here {@code self} and {@code oldSelf} are {@code dyn}, so a type error shows only when a rule
 * runs. Kubernetes' other libraries ({@code quantity()}, {@code isURL}, {@code url()}, {@code ip()}, {@code cidr()},
 * {@code format}, authz, {@code findAll}) are not declared: no rule of these CRDs calls them, and a rule that did would
 * fail to compile here and be listed by {@code CrdCelRulesTest}.
 */
final class KubernetesCel {
    private static final Cel CEL = CelFactory.standardCelBuilder()
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addCompilerLibraries(CelExtensions.strings())
            .addRuntimeLibraries(CelExtensions.strings())
            .addVar("self", SimpleType.DYN)
            .addVar("oldSelf", SimpleType.DYN)
            .addFunctionDeclarations(CelFunctionDecl.newFunctionDeclaration("find",
                    CelOverloadDecl.newMemberOverload("string_find_string", SimpleType.STRING, SimpleType.STRING, SimpleType.STRING)))
            .addFunctionBindings(CelFunctionBinding.from("string_find_string", String.class, String.class, KubernetesCel::find))
            .build();
    private static final Map<String, Pattern> PATTERNS = new HashMap<>();

    private KubernetesCel() {
    }

    /** A compiled rule, or the compiler's message when cel-java cannot compile it. */
    record Compiled(String rule, CelAbstractSyntaxTree ast, String error) {
        boolean ok() {
            return ast != null;
        }

        boolean isTransition() {
            // The API server's own test: a rule that names oldSelf runs only on update, when there is an old value.
            return rule.matches("(?s).*\\boldSelf\\b.*");
        }
    }

    static Compiled compile(String rule) {
        try {
            return new Compiled(rule, CEL.compile(rule).getAst(), null);
        } catch (CelValidationException e) {
            return new Compiled(rule, null, e.getMessage());
        }
    }

    /**
     * Runs a compiled rule. Like the API server, a rule that does not yield {@code true}, or fails (a missing field, a
     * bad {@code int()} conversion), rejects the object.
     *
     * @return null when the rule holds, else why not
     */
    static String evaluate(Compiled compiled, Object self, Object oldSelf) {
        Map<String, Object> vars = new HashMap<>();
        vars.put("self", self);
        if (oldSelf != null) {
            vars.put("oldSelf", oldSelf);
        }
        try {
            Object result = CEL.createProgram(compiled.ast()).eval(vars);
            return Boolean.TRUE.equals(result) ? null : "evaluated to " + result;
        } catch (CelEvaluationException e) {
            return "evaluation error: " + e.getMessage();
        }
    }

    private static String find(String s, String regex) {
        Pattern p;
        synchronized (PATTERNS) {
            p = PATTERNS.computeIfAbsent(regex, Pattern::compile);
        }
        Matcher m = p.matcher(s);
        return m.find() ? m.group() : "";
    }
}
