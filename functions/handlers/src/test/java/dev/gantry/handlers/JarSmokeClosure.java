package dev.gantry.handlers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.MethodModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.MemberRefEntry;
import java.lang.classfile.constantpool.MethodHandleEntry;
import java.lang.classfile.constantpool.NameAndTypeEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.lang.classfile.instruction.ConstantInstruction;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.classfile.instruction.NewObjectInstruction;
import java.lang.classfile.instruction.NewReferenceArrayInstruction;
import java.lang.classfile.instruction.TypeCheckInstruction;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;

/**
 * The SDK service classes a function can load, found from its own bytecode. The shade filters in the handlers pom
 * keep, of the EC2 and SSM modules, only these classes of their {@code model}, {@code transform} and
 * {@code paginators} packages (plus every outer {@code *Request} class, which the verifier loads when it links the
 * client): a service module holds every operation's shapes, and a function calls a handful (EC2 is 81 MB unzipped,
 * of which the closure below is about 6 MB). Of every module they drop the async client (but S3's) and the warm-up
 * provider, which this closure must then never reach.
 *
 * <p>Roots are the classes of the function's jar under {@code dev/gantry/} and the service classes outside the cut
 * packages. From a root every class named in its constant pool is reachable, except that the client classes
 * ({@code XClient}, {@code DefaultXClient}), which name every operation, are followed method by method: only the
 * operations called on them (and what those call) count. {@link DistJarSmokeIT} checks each jar holds what its classes reach;
 * {@link #main} prints the include lines for the pom.
 */
public final class JarSmokeClosure {
    private static final Pattern CLASS_IN_DESCRIPTOR = Pattern.compile("L([A-Za-z0-9_/$]+);");

    private final String pkg;
    private final Function<String, byte[]> classes;
    private final Set<String> seen = new TreeSet<>();
    private final Set<String> seenMethods = new HashSet<>();
    /** For each class reached, the class (or client method) that first reached it: the path a failure names. */
    private final Map<String, String> via = new HashMap<>();
    private String current = "(root)";

    private JarSmokeClosure(String pkg, Function<String, byte[]> classes) {
        this.pkg = pkg;
        this.classes = classes;
    }

    private void push(Deque<String> todo, String cls) {
        via.putIfAbsent(cls, current);
        todo.add(cls);
    }

    /** How {@code cls} was reached: the chain of classes from a function class, nearest first. */
    String path(String cls) {
        StringBuilder b = new StringBuilder(cls);
        String c = cls;
        for (int i = 0; i < 30 && via.containsKey(c) && !via.get(c).equals(c); i++) {
            c = via.get(c);
            b.append(" <- ").append(c);
        }
        return b.toString();
    }

    /** True for the packages the shade filters cut; everything else in a service module is kept whole. */
    static boolean cut(String pkg, String cls) {
        if (!cls.startsWith(pkg)) {
            return false;
        }
        String rest = cls.substring(pkg.length());
        // Async classes outside the top level (S3's cross-region and multipart async clients, say) stay in the jar,
        // but only count when something reaches them: Gantry builds sync clients only.
        return rest.startsWith("model/") || rest.startsWith("transform/") || rest.startsWith("paginators/")
                || rest.startsWith("waiters/") || rest.startsWith("internal/warmup/") || rest.contains("Async");
    }

    /** Classes the verifier loads when it links the client: the outer request class of every operation. */
    static boolean outerRequest(String pkg, String cls) {
        return cls.startsWith(pkg + "model/") && cls.endsWith("Request") && !cls.contains("$");
    }

    private boolean fanOut(String cls) {
        String rest = cls.substring(pkg.length());
        return !rest.contains("/") && rest.endsWith("Client") && !rest.contains("Async");
    }

    /**
     * The closure for one service package: {@code roots} are the function's own classes (by internal name, read
     * through {@code classes}) and {@code serviceClasses} every class of the service module. With
     * {@code serviceRoots}, every service class outside the cut packages is a root too (the pom's includes are made
     * that way, which over-approximates); without, only what the function's classes reach counts (the check).
     */
    static JarSmokeClosure of(String pkg, Set<String> roots, Set<String> serviceClasses, Function<String, byte[]> classes,
                              boolean serviceRoots) {
        JarSmokeClosure c = new JarSmokeClosure(pkg, classes);
        Deque<String> todo = new ArrayDeque<>();
        Deque<String[]> methods = new ArrayDeque<>();
        for (String r : roots) {
            c.scanRoot(r, todo, methods);
        }
        if (serviceRoots) {
            serviceClasses.stream().filter(s -> !cut(pkg, s)).forEach(t -> c.push(todo, t));
        }
        while (!todo.isEmpty() || !methods.isEmpty()) {
            while (!todo.isEmpty()) {
                String cls = todo.pop();
                if (!serviceClasses.contains(cls) || !c.seen.add(cls)) {
                    continue;
                }
                if (c.fanOut(cls)) {
                    methods.add(new String[] {cls, "<init>"});
                    methods.add(new String[] {cls, "<clinit>"});
                    methods.add(new String[] {cls, "close"});
                    methods.add(new String[] {cls, "serviceName"});
                    methods.add(new String[] {cls, "serviceClientConfiguration"});
                } else {
                    c.scanRoot(cls, todo, methods);
                }
            }
            while (!methods.isEmpty()) {
                String[] m = methods.pop();
                c.method(m[0], m[1], todo, methods);
            }
        }
        return c;
    }

    /** The service classes reached. */
    Set<String> reached() {
        return seen;
    }

    /** A class: the classes it names, and the client methods it calls. */
    private void scanRoot(String cls, Deque<String> todo, Deque<String[]> methods) {
        current = cls;
        ClassModel cm = ClassFile.of().parse(classes.apply(cls));
        refs(cm).forEach(t -> push(todo, t));
        for (PoolEntry e : cm.constantPool()) {
            if (e instanceof MemberRefEntry ref && ref.owner().asInternalName().startsWith(pkg)
                    && fanOutName(ref.owner().asInternalName())) {
                via.putIfAbsent(ref.owner().asInternalName() + "#" + ref.name().stringValue(), cls);
                methods.add(new String[] {ref.owner().asInternalName(), ref.name().stringValue()});
            }
        }
    }

    private boolean fanOutName(String cls) {
        return cls.startsWith(pkg) && fanOut(cls);
    }

    /** Follows the methods named {@code name} of a client class (and of its default client) through their code. */
    private void method(String cls, String name, Deque<String> todo, Deque<String[]> methods) {
        List<String> owners = List.of(cls, defaultOf(cls));
        for (String owner : owners) {
            if (!seenMethods.add(owner + "#" + name)) {
                continue;
            }
            byte[] bytes = classes.apply(owner);
            if (bytes == null) {
                continue;
            }
            current = owner + "#" + name;
            via.putIfAbsent(owner + "#" + name, cls + "#" + name);
            push(todo, owner);
            ClassModel cm = ClassFile.of().parse(bytes);
            cm.superclass().ifPresent(s -> push(todo, s.asInternalName()));
            cm.interfaces().forEach(i -> push(todo, i.asInternalName()));
            for (MethodModel mm : cm.methods()) {
                if (!mm.methodName().stringValue().equals(name)) {
                    continue;
                }
                descriptorClasses(mm.methodType().stringValue()).forEach(t -> push(todo, t));
                mm.code().ifPresent(code -> {
                    for (CodeElement el : code) {
                        instructionRefs(el, todo, methods);
                    }
                });
            }
        }
    }

    private String defaultOf(String cls) {
        int slash = cls.lastIndexOf('/');
        String simple = cls.substring(slash + 1);
        return simple.startsWith("Default") ? cls : cls.substring(0, slash + 1) + "Default" + simple;
    }

    private void instructionRefs(CodeElement el, Deque<String> todo, Deque<String[]> methods) {
        switch (el) {
            case InvokeInstruction i -> member(i.owner(), i.name().stringValue(), i.type().stringValue(), todo, methods);
            case FieldInstruction f -> member(f.owner(), f.name().stringValue(), f.type().stringValue(), todo, methods);
            case NewObjectInstruction n -> push(todo, n.className().asInternalName());
            case NewReferenceArrayInstruction n -> push(todo, n.componentType().asInternalName());
            case TypeCheckInstruction t -> push(todo, t.type().asInternalName());
            case ConstantInstruction.LoadConstantInstruction l when l.constantEntry() instanceof ClassEntry ce ->
                    push(todo, ce.asInternalName());
            case InvokeDynamicInstruction indy -> {
                descriptorClasses(indy.typeSymbol().descriptorString()).forEach(t -> push(todo, t));
                indy.invokedynamic().bootstrap().arguments().forEach(a -> {
                    if (a instanceof MethodHandleEntry mh) {
                        MemberRefEntry r = mh.reference();
                        member(r.owner(), r.name().stringValue(), r.type().stringValue(), todo, methods);
                    }
                });
            }
            default -> { }
        }
    }

    private void member(ClassEntry owner, String name, String type, Deque<String> todo, Deque<String[]> methods) {
        String o = owner.asInternalName();
        descriptorClasses(type).forEach(t -> push(todo, t));
        if (fanOutName(o)) {
            via.putIfAbsent(o + "#" + name, current);
            methods.add(new String[] {o, name});
        } else {
            push(todo, o);
        }
    }

    /** Every class a class file names: class entries and the classes in its descriptors and signatures. */
    private static Set<String> refs(ClassModel cm) {
        Set<String> out = new HashSet<>();
        for (PoolEntry e : cm.constantPool()) {
            if (e instanceof ClassEntry ce) {
                String n = ce.asInternalName();
                out.add(n.startsWith("[") ? n.replaceAll("^\\[+L?|;$", "") : n);
            } else if (e instanceof Utf8Entry u) {
                descriptorClasses(u.stringValue()).forEach(out::add);
            } else if (e instanceof NameAndTypeEntry nt) {
                descriptorClasses(nt.type().stringValue()).forEach(out::add);
            }
        }
        return out;
    }

    private static Set<String> descriptorClasses(String s) {
        Set<String> out = new HashSet<>();
        Matcher m = CLASS_IN_DESCRIPTOR.matcher(s);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** Every class of a jar (internal names) whose entry starts with {@code prefix}. */
    static Set<String> classesIn(ZipFile zip, String prefix) {
        Set<String> out = new TreeSet<>();
        zip.stream().map(java.util.zip.ZipEntry::getName).filter(n -> n.startsWith(prefix) && n.endsWith(".class"))
                .forEach(n -> out.add(n.substring(0, n.length() - ".class".length())));
        return out;
    }

    static byte[] read(ZipFile zip, String cls) {
        var e = zip.getEntry(cls + ".class");
        if (e == null) {
            return null;
        }
        try (InputStream in = zip.getInputStream(e)) {
            return in.readAllBytes();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Prints the shade include lines for one service: {@code java JarSmokeClosure <service jar> <function jar>...}
     * (the union over the function jars given).
     */
    public static void main(String[] args) throws IOException {
        Path serviceJar = Path.of(args[0]);
        String service = serviceJar.getFileName().toString().replaceAll("-[0-9.]+\\.jar$", "");
        String pkg = "software/amazon/awssdk/services/" + service + "/";
        Set<String> keep = new TreeSet<>();
        try (ZipFile svc = new ZipFile(serviceJar.toFile())) {
            Set<String> all = classesIn(svc, pkg);
            for (int i = 1; i < args.length; i++) {
                try (ZipFile fn = new ZipFile(args[i])) {
                    Set<String> roots = classesIn(fn, "dev/gantry/");
                    keep.addAll(of(pkg, roots, all, c -> c.startsWith(pkg) ? read(svc, c) : read(fn, c),
                            !Boolean.getBoolean("closure.reachableOnly")).reached());
                }
            }
        }
        Set<String> outers = new TreeSet<>();
        for (String c : keep) {
            if (cut(pkg, c) && !outerRequest(pkg, c)) {
                int dollar = c.indexOf('$');
                outers.add(dollar < 0 ? c : c.substring(0, dollar));
            }
        }
        for (String o : outers) {
            System.out.println("<include>" + o + ".class</include><include>" + o + "$*</include>");
        }
        System.err.println(service + ": " + keep.size() + " classes reachable, " + outers.size() + " outer classes in the cut packages");
    }
}
