package dap2mcp.javahost;

import com.microsoft.java.debug.core.DebugException;
import com.microsoft.java.debug.core.adapter.IDebugAdapterContext;
import com.microsoft.java.debug.core.adapter.ISourceLookUpProvider;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.Trees;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Where sources are, in both directions, without an IDE's project model.
 *
 * A source line to its class: the file is parsed with the JDK's own compiler (its tree API, no compilation), and the
 * line is given to the innermost named class whose body holds it ({@code Outer$Inner}); the library then looks in
 * that class and in the classes nested in it (anonymous and local ones, {@code Outer$1}). A class to its source file:
 * the class's source path ({@code com/acme/Order.java}, from its package and its SourceFile attribute) under the
 * source roots the launch named, else under the package folders of the files parsed so far. Classes without source
 * here (the JDK's, a jar's) have none: their frames show no file.
 */
final class Sources implements ISourceLookUpProvider {
    private volatile IDebugAdapterContext context;
    private final Map<String, Parsed> parsed = new ConcurrentHashMap<>();
    /** A parsed file's path by its source path (package folders and file name): found where no root names it. */
    private final Map<String, String> seen = new ConcurrentHashMap<>();

    private record Parsed(long modified, List<Span> classes) {
    }

    private record Span(String binaryName, long first, long last, int depth) {
    }

    @Override
    public void initialize(IDebugAdapterContext debugContext, Map<String, Object> options) {
        context = debugContext;
    }

    @Override
    public boolean supportsRealtimeBreakpointVerification() {
        return false;
    }

    @Override
    public String[] getFullyQualifiedName(String uri, int[] lines, int[] columns) throws DebugException {
        String[] names = new String[lines.length];
        String file = asPath(uri);
        List<Span> classes = classesOf(file);
        for (int i = 0; i < lines.length; i++) {
            Span best = null;
            for (Span span : classes) {
                if (span.first <= lines[i] && lines[i] <= span.last && (best == null || span.depth > best.depth)) {
                    best = span;
                }
            }
            names[i] = best == null ? null : best.binaryName;
        }
        return names;
    }

    @Override
    public String getSourceFileURI(String fullyQualifiedName, String sourcePath) {
        if (sourcePath == null || sourcePath.isEmpty()) {
            return null;
        }
        IDebugAdapterContext ctx = context;
        String[] roots = ctx == null ? null : ctx.getSourcePaths();
        if (roots != null) {
            for (String root : roots) {
                Path candidate = Paths.get(root).resolve(sourcePath);
                if (Files.isRegularFile(candidate)) {
                    return candidate.toAbsolutePath().normalize().toUri().toString();
                }
            }
        }
        String known = seen.get(sourcePath.replace(File.separatorChar, '/'));
        return known == null ? null : Paths.get(known).toUri().toString();
    }

    @Override
    public String getSourceContents(String uri) {
        try {
            return Files.readString(Paths.get(asPath(uri)), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    @Override
    public String getJavaRuntimeVersion(String projectName) {
        return null;
    }

    private static String asPath(String uri) {
        if (uri.startsWith("file:")) {
            return Paths.get(URI.create(uri)).toString();
        }
        return uri;
    }

    private List<Span> classesOf(String file) throws DebugException {
        File source = new File(file);
        long modified = source.lastModified();
        Parsed known = parsed.get(file);
        if (known != null && known.modified == modified) {
            return known.classes;
        }
        List<Span> classes = parse(source);
        parsed.put(file, new Parsed(modified, classes));
        return classes;
    }

    private List<Span> parse(File source) throws DebugException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new DebugException("the Java host runs on a JRE without the compiler's parser (javac): run it on a JDK");
        }
        try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            Iterable<? extends JavaFileObject> units = files.getJavaFileObjects(source);
            JavacTask task = (JavacTask) compiler.getTask(null, files, diagnostic -> { }, List.of("-proc:none"), null, units);
            List<Span> classes = new ArrayList<>();
            SourcePositions positions = Trees.instance(task).getSourcePositions();
            for (CompilationUnitTree unit : task.parse()) {
                String pkg = unit.getPackageName() == null ? "" : unit.getPackageName().toString();
                LineMap lines = unit.getLineMap();
                String folders = pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/";
                seen.put(folders + source.getName(), source.getAbsolutePath());
                for (Tree type : unit.getTypeDecls()) {
                    if (type instanceof ClassTree) {
                        collect((ClassTree) type, pkg.isEmpty() ? "" : pkg + ".", "", unit, positions, lines, classes, 0);
                    }
                }
            }
            return classes;
        } catch (IOException | RuntimeException e) {
            throw new DebugException("could not read " + source + ": " + e);
        }
    }

    /** A class and its member classes, by binary name; local and anonymous classes stay with the class around them. */
    private static void collect(ClassTree type, String prefix, String separator, CompilationUnitTree unit,
                                SourcePositions positions, LineMap lines, List<Span> into, int depth) {
        String name = prefix + separator + type.getSimpleName();
        long start = positions.getStartPosition(unit, type);
        long end = positions.getEndPosition(unit, type);
        if (start >= 0 && end >= 0) {
            into.add(new Span(name, lines.getLineNumber(start), lines.getLineNumber(end), depth));
        }
        for (Tree member : type.getMembers()) {
            if (member instanceof ClassTree) {
                collect((ClassTree) member, name, "$", unit, positions, lines, into, depth + 1);
            }
        }
    }
}
