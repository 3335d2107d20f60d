package dap2mcp.javahost;

import com.microsoft.java.debug.core.DebugException;
import com.microsoft.java.debug.core.IEvaluatableBreakpoint;
import com.microsoft.java.debug.core.adapter.IDebugAdapterContext;
import com.microsoft.java.debug.core.adapter.IEvaluationProvider;
import com.microsoft.java.debug.core.protocol.Events;
import com.sun.jdi.AbsentInformationException;
import com.sun.jdi.ArrayReference;
import com.sun.jdi.ArrayType;
import com.sun.jdi.BooleanValue;
import com.sun.jdi.ByteValue;
import com.sun.jdi.CharValue;
import com.sun.jdi.ClassNotLoadedException;
import com.sun.jdi.ClassType;
import com.sun.jdi.DoubleValue;
import com.sun.jdi.Field;
import com.sun.jdi.FloatValue;
import com.sun.jdi.IncompatibleThreadStateException;
import com.sun.jdi.IntegerValue;
import com.sun.jdi.InterfaceType;
import com.sun.jdi.InvalidTypeException;
import com.sun.jdi.InvocationException;
import com.sun.jdi.LocalVariable;
import com.sun.jdi.LongValue;
import com.sun.jdi.Method;
import com.sun.jdi.ObjectReference;
import com.sun.jdi.PrimitiveValue;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.ShortValue;
import com.sun.jdi.StackFrame;
import com.sun.jdi.StringReference;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.Value;
import com.sun.jdi.VirtualMachine;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Evaluation where the library has none (in VS Code, JDT's compiler evaluates): a small interpreter of Java
 * expressions over JDI. It reads locals, fields of {@code this} and static fields, follows fields
 * ({@code order.total}), indexes arrays, calls methods in the program ({@code items.size()}, {@code map.get("k")},
 * {@code Math.max(a, b)}) through JDI's invokeMethod on the stopped thread alone, computes with numbers (boxed ones
 * unboxed), compares, joins strings with {@code +}, and assigns ({@code x = 5}, {@code order.total = 0}). What it cannot
 * evaluate (casts, {@code new}, lambdas, generics, operators on bits) is refused with an error that says so.
 */
final class Evaluator implements IEvaluationProvider {
    static final String CANNOT = "the Java host's evaluator reads locals and fields, calls methods, indexes arrays, "
            + "computes with numbers, compares and joins strings; ";
    private static final Pattern LOG_PART = Pattern.compile("\\{([^{}]*)\\}");
    private static final int INVOKE = ObjectReference.INVOKE_SINGLE_THREADED;

    private volatile IDebugAdapterContext context;
    private final Set<Long> evaluating = ConcurrentHashMap.newKeySet();
    private final ExecutorService pool = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "dap2mcp-evaluation");
        thread.setDaemon(true);
        return thread;
    });

    @Override
    public void initialize(IDebugAdapterContext debugContext, Map<String, Object> options) {
        context = debugContext;
        Shown.Fractions.install(debugContext);
        Shown.Plain.install(debugContext);
    }

    /** The session's context, once a launch or an attach has made it (null before). */
    IDebugAdapterContext context() {
        return context;
    }

    @Override
    public boolean isInEvaluation(ThreadReference thread) {
        return evaluating.contains(thread.uniqueID());
    }

    @Override
    public CompletableFuture<Value> evaluate(String expression, ThreadReference thread, int depth) {
        return run(thread, () -> new Run(thread, depth, null).result(Parser.parse(expression)));
    }

    @Override
    public CompletableFuture<Value> evaluate(String expression, ObjectReference thisContext, ThreadReference thread) {
        return run(thread, () -> new Run(thread, -1, thisContext).result(Parser.parse(expression)));
    }

    @Override
    public CompletableFuture<Value> evaluateForBreakpoint(IEvaluatableBreakpoint breakpoint, ThreadReference thread) {
        String message = breakpoint.getLogMessage();
        if (message != null && !message.isBlank()) {
            return run(thread, () -> {
                Run run = new Run(thread, 0, null);
                Matcher parts = LOG_PART.matcher(message);
                StringBuilder text = new StringBuilder();
                while (parts.find()) {
                    String said;
                    try {
                        said = run.text(run.value(Parser.parse(parts.group(1))));
                    } catch (DebugException e) {
                        said = "<" + e.getMessage() + ">";
                    }
                    parts.appendReplacement(text, Matcher.quoteReplacement(said));
                }
                parts.appendTail(text);
                IDebugAdapterContext ctx = context;
                if (ctx != null) {
                    ctx.getProtocolServer().sendEvent(new Events.OutputEvent(Events.OutputEvent.Category.console,
                            text + "\n"));
                }
                return null;
            });
        }
        return evaluate(breakpoint.getCondition(), thread, 0);
    }

    @Override
    public CompletableFuture<Value> invokeMethod(ObjectReference thisContext, String methodName, String methodSignature,
                                                Value[] args, ThreadReference thread, boolean invokeSuper) {
        return run(thread, () -> {
            Method method = null;
            if (thisContext.referenceType() instanceof ClassType) {
                method = ((ClassType) thisContext.referenceType()).concreteMethodByName(methodName, methodSignature);
            }
            if (method == null) {
                List<Method> found = thisContext.referenceType().methodsByName(methodName, methodSignature);
                method = found.isEmpty() ? null : found.get(0);
            }
            if (method == null) {
                throw new DebugException(thisContext.referenceType().name() + " has no method " + methodName
                        + methodSignature);
            }
            List<Value> arguments = args == null ? List.of() : List.of(args);
            return new Run(thread, -1, null).invoke(thisContext, method, arguments,
                    invokeSuper ? INVOKE | ObjectReference.INVOKE_NONVIRTUAL : INVOKE);
        });
    }

    @Override
    public void clearState(ThreadReference thread) {
    }

    private interface Work {
        Value call() throws DebugException;
    }

    private CompletableFuture<Value> run(ThreadReference thread, Work work) {
        return CompletableFuture.supplyAsync(() -> {
            long id = thread.uniqueID();
            evaluating.add(id);
            try {
                return work.call();
            } catch (DebugException e) {
                throw new CompletionException(e);
            } catch (RuntimeException e) {
                throw new CompletionException(new DebugException(String.valueOf(e.getMessage() == null ? e : e.getMessage())));
            } finally {
                evaluating.remove(id);
                IDebugAdapterContext ctx = context;
                if (ctx != null) {
                    // a call ran the thread: the frames the library holds for it are no longer valid
                    ctx.getStackFrameManager().reloadStackFrames(thread);
                }
            }
        }, pool);
    }

    /** A class named in an expression, for its static fields and methods. */
    private record TypeName(ReferenceType type) {
    }

    /** A name that is neither a variable nor a loaded class: maybe a package, if a class name follows. */
    private record Unresolved(String name) {
    }

    /** Where an assignment writes. */
    private interface Place {
        void set(Value value) throws DebugException;

        String typeName();
    }

    /** One evaluation on one stopped thread, in the frame at {@code depth} (or only on {@code self}, for -1). */
    final class Run {
        private final ThreadReference thread;
        private final int depth;
        private final ObjectReference self;
        private final VirtualMachine vm;
        private final List<ObjectReference> pinned = new ArrayList<>();

        Run(ThreadReference thread, int depth, ObjectReference self) {
            this.thread = thread;
            this.depth = depth;
            this.self = self;
            this.vm = thread.virtualMachine();
        }

        Value result(Parser.Node node) throws DebugException {
            try {
                return value(node);
            } finally {
                for (ObjectReference object : pinned) {
                    try {
                        object.enableCollection();
                    } catch (RuntimeException ignored) {
                        // collected or gone with the VM: nothing to give back
                    }
                }
            }
        }

        /** The frame, fetched afresh: a method call resumes the thread and makes earlier frames invalid. */
        private StackFrame frame() throws DebugException {
            if (depth < 0) {
                return null;
            }
            try {
                return thread.frame(depth);
            } catch (IncompatibleThreadStateException | IndexOutOfBoundsException e) {
                throw new DebugException("the thread is not stopped at a frame " + depth);
            }
        }

        private ObjectReference thisObject() throws DebugException {
            if (self != null) {
                return self;
            }
            StackFrame frame = frame();
            return frame == null ? null : frame.thisObject();
        }

        private ReferenceType here() throws DebugException {
            if (self != null) {
                return self.referenceType();
            }
            StackFrame frame = frame();
            return frame == null ? null : frame.location().declaringType();
        }

        Value value(Parser.Node node) throws DebugException {
            Object found = eval(node);
            if (found instanceof TypeName) {
                throw new DebugException(((TypeName) found).type().name() + " is a class, not a value");
            }
            if (found instanceof Unresolved) {
                throw new DebugException("cannot find '" + ((Unresolved) found).name() + "': no local variable, field "
                        + "or loaded class has that name here");
            }
            return (Value) found;
        }

        private Object eval(Parser.Node node) throws DebugException {
            if (node instanceof Parser.Literal) {
                return literal(((Parser.Literal) node).value());
            }
            if (node instanceof Parser.This) {
                ObjectReference object = thisObject();
                if (object == null) {
                    throw new DebugException("'this' is not there in a static method");
                }
                return object;
            }
            if (node instanceof Parser.Name) {
                return name(((Parser.Name) node).name());
            }
            if (node instanceof Parser.Member) {
                Parser.Member member = (Parser.Member) node;
                return member(eval(member.target()), member.name());
            }
            if (node instanceof Parser.Call) {
                return call((Parser.Call) node);
            }
            if (node instanceof Parser.Index) {
                Parser.Index index = (Parser.Index) node;
                Value array = value(index.target());
                if (!(array instanceof ArrayReference)) {
                    throw new DebugException("only arrays are indexed with [ ]; call get(i) on a list");
                }
                int at = (int) integral(value(index.index()));
                ArrayReference elements = (ArrayReference) array;
                if (at < 0 || at >= elements.length()) {
                    throw new DebugException("index " + at + " is out of bounds for length " + elements.length());
                }
                return elements.getValue(at);
            }
            if (node instanceof Parser.Unary) {
                return unary((Parser.Unary) node);
            }
            if (node instanceof Parser.Binary) {
                return binary((Parser.Binary) node);
            }
            if (node instanceof Parser.Conditional) {
                Parser.Conditional conditional = (Parser.Conditional) node;
                return truth(value(conditional.test())) ? value(conditional.then()) : value(conditional.otherwise());
            }
            if (node instanceof Parser.Assign) {
                Parser.Assign assign = (Parser.Assign) node;
                Place place = place(assign.target());
                Value assigned = fitted(value(assign.value()), place.typeName());
                place.set(assigned);
                return assigned;
            }
            throw new DebugException(CANNOT + "not this");
        }

        private Value literal(Object constant) {
            if (constant == null) {
                return null;
            }
            if (constant instanceof String) {
                StringReference text = vm.mirrorOf((String) constant);
                pin(text);
                return text;
            }
            if (constant instanceof Integer) {
                return vm.mirrorOf((Integer) constant);
            }
            if (constant instanceof Long) {
                return vm.mirrorOf((Long) constant);
            }
            if (constant instanceof Double) {
                return vm.mirrorOf((Double) constant);
            }
            if (constant instanceof Float) {
                return vm.mirrorOf((Float) constant);
            }
            if (constant instanceof Character) {
                return vm.mirrorOf((Character) constant);
            }
            return vm.mirrorOf((Boolean) constant);
        }

        private void pin(ObjectReference object) {
            try {
                object.disableCollection();
                pinned.add(object);
            } catch (RuntimeException ignored) {
                // already collected: it is used at once anyway
            }
        }

        private Object name(String name) throws DebugException {
            StackFrame frame = frame();
            if (frame != null) {
                try {
                    LocalVariable local = frame.visibleVariableByName(name);
                    if (local != null) {
                        return frame.getValue(local);
                    }
                } catch (AbsentInformationException e) {
                    // compiled without -g: no local names, fields still are
                }
            }
            ObjectReference object = thisObject();
            if (object != null) {
                Field field = object.referenceType().fieldByName(name);
                if (field != null) {
                    return field.isStatic() ? field.declaringType().getValue(field) : object.getValue(field);
                }
            }
            ReferenceType type = here();
            if (type != null) {
                Field field = type.fieldByName(name);
                if (field != null && field.isStatic()) {
                    return type.getValue(field);
                }
            }
            ReferenceType named = loadedClass(name);
            return named != null ? new TypeName(named) : new Unresolved(name);
        }

        private ReferenceType loadedClass(String name) throws DebugException {
            List<String> tries = new ArrayList<>(List.of(name, "java.lang." + name));
            ReferenceType type = here();
            if (type != null) {
                String outer = type.name();
                tries.add(outer + "$" + name);
                int dot = outer.lastIndexOf('.');
                if (dot > 0) {
                    tries.add(outer.substring(0, dot + 1) + name);
                }
            }
            for (String candidate : tries) {
                List<ReferenceType> found = vm.classesByName(candidate);
                if (!found.isEmpty()) {
                    return found.get(0);
                }
            }
            return null;
        }

        private Object member(Object target, String name) throws DebugException {
            if (target instanceof Unresolved) {
                String dotted = ((Unresolved) target).name() + "." + name;
                List<ReferenceType> found = vm.classesByName(dotted);
                return found.isEmpty() ? new Unresolved(dotted) : new TypeName(found.get(0));
            }
            if (target instanceof TypeName) {
                ReferenceType type = ((TypeName) target).type();
                Field field = type.fieldByName(name);
                if (field != null && field.isStatic()) {
                    return type.getValue(field);
                }
                List<ReferenceType> nested = vm.classesByName(type.name() + "$" + name);
                if (!nested.isEmpty()) {
                    return new TypeName(nested.get(0));
                }
                throw new DebugException(type.name() + " has no static field " + name);
            }
            Value value = (Value) target;
            if (value == null) {
                throw new DebugException("cannot read ." + name + " of null");
            }
            if (value instanceof ArrayReference && name.equals("length")) {
                return vm.mirrorOf(((ArrayReference) value).length());
            }
            if (!(value instanceof ObjectReference)) {
                throw new DebugException("a " + value.type().name() + " has no fields");
            }
            ObjectReference object = (ObjectReference) value;
            Field field = object.referenceType().fieldByName(name);
            if (field == null) {
                throw new DebugException(object.referenceType().name() + " has no field " + name
                        + (object.referenceType().methodsByName(name).isEmpty() ? "" : " (it has a method: " + name + "())"));
            }
            return field.isStatic() ? field.declaringType().getValue(field) : object.getValue(field);
        }

        private Place place(Parser.Node target) throws DebugException {
            if (target instanceof Parser.Name) {
                String name = ((Parser.Name) target).name();
                StackFrame frame = frame();
                if (frame != null) {
                    try {
                        LocalVariable local = frame.visibleVariableByName(name);
                        if (local != null) {
                            return new Place() {
                                public void set(Value value) throws DebugException {
                                    try {
                                        frame().setValue(local, value);
                                    } catch (InvalidTypeException | ClassNotLoadedException e) {
                                        throw new DebugException("cannot assign that to " + name + ": " + e.getMessage());
                                    }
                                }

                                public String typeName() {
                                    return local.typeName();
                                }
                            };
                        }
                    } catch (AbsentInformationException e) {
                        // no local names: fields below
                    }
                }
                ObjectReference object = thisObject();
                Field field = object != null ? object.referenceType().fieldByName(name)
                        : here() == null ? null : here().fieldByName(name);
                if (field == null) {
                    throw new DebugException("cannot find the variable '" + name + "' to assign");
                }
                return fieldPlace(field.isStatic() ? null : object, field);
            }
            if (target instanceof Parser.Member) {
                Parser.Member member = (Parser.Member) target;
                Object owner = eval(member.target());
                if (owner instanceof TypeName) {
                    Field field = ((TypeName) owner).type().fieldByName(member.name());
                    if (field == null || !field.isStatic()) {
                        throw new DebugException(((TypeName) owner).type().name() + " has no static field " + member.name());
                    }
                    return fieldPlace(null, field);
                }
                if (!(owner instanceof ObjectReference)) {
                    throw new DebugException("only fields of objects are assigned with '.'");
                }
                ObjectReference object = (ObjectReference) owner;
                Field field = object.referenceType().fieldByName(member.name());
                if (field == null) {
                    throw new DebugException(object.referenceType().name() + " has no field " + member.name());
                }
                return fieldPlace(field.isStatic() ? null : object, field);
            }
            if (target instanceof Parser.Index) {
                Parser.Index index = (Parser.Index) target;
                Value array = value(index.target());
                if (!(array instanceof ArrayReference)) {
                    throw new DebugException("only arrays are indexed with [ ]; call set(i, value) on a list");
                }
                int at = (int) integral(value(index.index()));
                ArrayReference elements = (ArrayReference) array;
                return new Place() {
                    public void set(Value value) throws DebugException {
                        try {
                            elements.setValue(at, value);
                        } catch (InvalidTypeException | ClassNotLoadedException | IndexOutOfBoundsException e) {
                            throw new DebugException("cannot assign that to element " + at + ": " + e.getMessage());
                        }
                    }

                    public String typeName() {
                        return ((ArrayType) elements.referenceType()).componentTypeName();
                    }
                };
            }
            throw new DebugException("only a variable, a field or an array element can be assigned");
        }

        private Place fieldPlace(ObjectReference object, Field field) {
            return new Place() {
                public void set(Value value) throws DebugException {
                    try {
                        if (object == null) {
                            ReferenceType owner = field.declaringType();
                            if (!(owner instanceof ClassType)) {
                                throw new DebugException("cannot assign a static field of an interface");
                            }
                            ((ClassType) owner).setValue(field, value);
                        } else {
                            object.setValue(field, value);
                        }
                    } catch (InvalidTypeException | ClassNotLoadedException e) {
                        throw new DebugException("cannot assign that to " + field.name() + ": " + e.getMessage());
                    }
                }

                public String typeName() {
                    return field.typeName();
                }
            };
        }

        private Object call(Parser.Call call) throws DebugException {
            Object target;
            if (call.target() == null) {
                ObjectReference object = thisObject();
                target = object != null ? object : here() == null ? null : new TypeName(here());
                if (target == null) {
                    throw new DebugException("no class to call " + call.name() + "() on here");
                }
            } else {
                target = eval(call.target());
            }
            List<Value> args = new ArrayList<>();
            for (Parser.Node arg : call.args()) {
                args.add(value(arg));
            }
            if (target instanceof Unresolved) {
                throw new DebugException("cannot find '" + ((Unresolved) target).name() + "' to call " + call.name()
                        + "() on: no variable or loaded class has that name here");
            }
            if (target instanceof TypeName) {
                ReferenceType type = ((TypeName) target).type();
                Chosen chosen = choose(type, call.name(), args, true);
                return invoke(type, chosen.method(), chosen.args());
            }
            Value value = (Value) target;
            if (value == null) {
                throw new DebugException("cannot call " + call.name() + "() on null");
            }
            if (!(value instanceof ObjectReference)) {
                throw new DebugException("a " + value.type().name() + " has no methods");
            }
            ObjectReference object = (ObjectReference) value;
            Chosen chosen = choose(object.referenceType(), call.name(), args, false);
            return invoke(object, chosen.method(), chosen.args(), INVOKE);
        }

        private record Chosen(Method method, List<Value> args) {
        }

        private Chosen choose(ReferenceType type, String name, List<Value> args, boolean statics) throws DebugException {
            List<Method> named = type.methodsByName(name);
            if (named.isEmpty()) {
                throw new DebugException(type.name() + " has no method " + name + "()");
            }
            Method best = null;
            int bestCost = Integer.MAX_VALUE;
            for (Method method : named) {
                if ((statics && !method.isStatic()) || method.argumentTypeNames().size() != args.size()) {
                    continue;
                }
                int cost = 0;
                List<String> params = method.argumentTypeNames();
                for (int i = 0; i < args.size() && cost >= 0; i++) {
                    int one = fit(args.get(i), params.get(i));
                    cost = one < 0 ? -1 : cost + one;
                }
                if (cost >= 0 && (cost < bestCost || (cost == bestCost && best != null && best.isAbstract()))) {
                    best = method;
                    bestCost = cost;
                }
            }
            if (best == null) {
                throw new DebugException(type.name() + " has no " + (statics ? "static " : "") + "method " + name
                        + " that takes " + describe(args));
            }
            List<Value> converted = new ArrayList<>();
            List<String> params = best.argumentTypeNames();
            for (int i = 0; i < args.size(); i++) {
                converted.add(fitted(args.get(i), params.get(i)));
            }
            return new Chosen(best, converted);
        }

        private String describe(List<Value> args) {
            if (args.isEmpty()) {
                return "no arguments";
            }
            List<String> types = new ArrayList<>();
            for (Value arg : args) {
                types.add(arg == null ? "null" : arg.type().name());
            }
            return "(" + String.join(", ", types) + ")";
        }

        /** How well `value` fits a parameter of type `param`: 0 exactly, more the further, -1 not at all. */
        private int fit(Value value, String param) {
            boolean primitiveParam = Numbers.PRIMITIVES.contains(param);
            if (value == null) {
                return primitiveParam ? -1 : 1;
            }
            if (value instanceof PrimitiveValue) {
                String kind = value.type().name();
                if (primitiveParam) {
                    return kind.equals(param) ? 0 : Numbers.widens(kind, param) ? 1 : -1;
                }
                String box = Numbers.boxOf(kind);
                return param.equals(box) ? 2 : param.equals("java.lang.Object") || param.equals("java.lang.Number")
                        && !kind.equals("boolean") && !kind.equals("char") ? 3 : -1;
            }
            ObjectReference object = (ObjectReference) value;
            if (primitiveParam) {
                String unboxed = Numbers.unboxedKind(object);
                return unboxed == null ? -1 : unboxed.equals(param) ? 2 : Numbers.widens(unboxed, param) ? 3 : -1;
            }
            int distance = Numbers.distance(object.referenceType(), param);
            return distance < 0 ? -1 : distance;
        }

        /** `value` as a parameter or variable of type `param` takes it: unboxed, widened or boxed. */
        private Value fitted(Value value, String param) throws DebugException {
            if (value == null) {
                return null;
            }
            boolean primitiveParam = Numbers.PRIMITIVES.contains(param);
            if (primitiveParam) {
                PrimitiveValue primitive = unbox(value);
                if (primitive == null) {
                    throw new DebugException("a " + value.type().name() + " is not a " + param);
                }
                return Numbers.convert(vm, primitive, param);
            }
            if (value instanceof PrimitiveValue) {
                String box = param.startsWith("java.lang.") && Numbers.PRIMITIVES.contains(Numbers.unboxOf(param))
                        ? Numbers.unboxOf(param) : value.type().name();
                return box(Numbers.convert(vm, (PrimitiveValue) value, box));
            }
            return value;
        }

        private Value box(PrimitiveValue value) throws DebugException {
            String boxName = Numbers.boxOf(value.type().name());
            List<ReferenceType> boxes = vm.classesByName(boxName);
            if (boxes.isEmpty()) {
                throw new DebugException(boxName + " is not loaded");
            }
            ClassType box = (ClassType) boxes.get(0);
            Method valueOf = box.concreteMethodByName("valueOf", "(" + value.type().signature() + ")L"
                    + boxName.replace('.', '/') + ";");
            return invoke(box, valueOf, List.of(value));  // pinned by `called`
        }

        /** A boxed number or char or boolean unboxed; a primitive as it is; null for anything else. */
        private PrimitiveValue unbox(Value value) {
            if (value instanceof PrimitiveValue) {
                return (PrimitiveValue) value;
            }
            if (value instanceof ObjectReference && Numbers.unboxedKind((ObjectReference) value) != null) {
                ObjectReference object = (ObjectReference) value;
                return (PrimitiveValue) object.getValue(object.referenceType().fieldByName("value"));
            }
            return null;
        }

        Value invoke(ObjectReference object, Method method, List<Value> args, int options) throws DebugException {
            return called(method, () -> object.invokeMethod(thread, method, args, options));
        }

        /** A static method of `type` called in the stopped thread. */
        private Value invoke(ReferenceType type, Method method, List<Value> args) throws DebugException {
            if (type instanceof ClassType) {
                return called(method, () -> ((ClassType) type).invokeMethod(thread, method, args, INVOKE));
            }
            if (type instanceof InterfaceType) {
                return called(method, () -> ((InterfaceType) type).invokeMethod(thread, method, args, INVOKE));
            }
            throw new DebugException("cannot call a static method of " + type.name());
        }

        /** One JDI call into the debuggee, with what it returns kept from the collector and its failures said. */
        private interface Call {
            Value run() throws InvocationException, IncompatibleThreadStateException, InvalidTypeException,
                    ClassNotLoadedException;
        }

        private Value called(Method method, Call call) throws DebugException {
            try {
                Value result = call.run();
                if (result instanceof ObjectReference) {
                    pin((ObjectReference) result);
                }
                return result;
            } catch (InvocationException e) {
                throw new DebugException(method.name() + "() threw " + thrown(e.exception()));
            } catch (IncompatibleThreadStateException e) {
                throw new DebugException("methods can be called only in a thread stopped at a breakpoint, a step or "
                        + "an exception, not one paused from outside");
            } catch (InvalidTypeException | ClassNotLoadedException e) {
                throw new DebugException("cannot call " + method.name() + "(): " + e.getMessage());
            }
        }

        private String thrown(ObjectReference exception) {
            String name = exception.referenceType().name();
            try {
                Method getMessage = ((ClassType) exception.referenceType()).concreteMethodByName("getMessage",
                        "()Ljava/lang/String;");
                Value message = exception.invokeMethod(thread, getMessage, List.of(), INVOKE);
                return message instanceof StringReference ? name + ": " + ((StringReference) message).value() : name;
            } catch (Exception e) {
                return name;
            }
        }

        /** The text Java's string concatenation gives a value: toString() of an object, called in the program. */
        String text(Value value) throws DebugException {
            if (value == null) {
                return "null";
            }
            if (value instanceof StringReference) {
                return ((StringReference) value).value();
            }
            if (value instanceof PrimitiveValue) {
                return Numbers.text((PrimitiveValue) value);
            }
            ObjectReference object = (ObjectReference) value;
            List<Method> toString = object.referenceType().methodsByName("toString", "()Ljava/lang/String;");
            if (toString.isEmpty()) {
                return object.referenceType().name();
            }
            Value said = invoke(object, toString.get(0), List.of(), INVOKE);
            return said instanceof StringReference ? ((StringReference) said).value() : "null";
        }

        private boolean truth(Value value) throws DebugException {
            PrimitiveValue primitive = unbox(value);
            if (!(primitive instanceof BooleanValue)) {
                throw new DebugException("not a boolean: " + (value == null ? "null" : value.type().name()));
            }
            return ((BooleanValue) primitive).value();
        }

        private long integral(Value value) throws DebugException {
            PrimitiveValue primitive = unbox(value);
            if (primitive instanceof IntegerValue || primitive instanceof LongValue || primitive instanceof ShortValue
                    || primitive instanceof ByteValue || primitive instanceof CharValue) {
                return primitive.longValue();
            }
            throw new DebugException("not an integer: " + (value == null ? "null" : value.type().name()));
        }

        private Value unary(Parser.Unary unary) throws DebugException {
            Value operand = value(unary.operand());
            switch (unary.op()) {
                case "!":
                    return vm.mirrorOf(!truth(operand));
                case "-":
                case "+": {
                    PrimitiveValue number = unbox(operand);
                    if (number == null || number instanceof BooleanValue) {
                        throw new DebugException("unary " + unary.op() + " needs a number");
                    }
                    String kind = Numbers.promoted(number.type().name(), "int");
                    boolean negate = unary.op().equals("-");
                    switch (kind) {
                        case "double":
                            return vm.mirrorOf(negate ? -number.doubleValue() : number.doubleValue());
                        case "float":
                            return vm.mirrorOf(negate ? -number.floatValue() : number.floatValue());
                        case "long":
                            return vm.mirrorOf(negate ? -number.longValue() : number.longValue());
                        default:
                            return vm.mirrorOf(negate ? -number.intValue() : number.intValue());
                    }
                }
                default:
                    throw new DebugException(CANNOT + "not the operator " + unary.op());
            }
        }

        private Value binary(Parser.Binary binary) throws DebugException {
            String op = binary.op();
            if (op.equals("&&")) {
                return vm.mirrorOf(truth(value(binary.left())) && truth(value(binary.right())));
            }
            if (op.equals("||")) {
                return vm.mirrorOf(truth(value(binary.left())) || truth(value(binary.right())));
            }
            Value left = value(binary.left());
            Value right = value(binary.right());
            if (op.equals("+") && (left instanceof StringReference || right instanceof StringReference)) {
                StringReference joined = vm.mirrorOf(text(left) + text(right));
                pin(joined);
                return joined;
            }
            if (op.equals("==") || op.equals("!=")) {
                boolean same = equal(left, right);
                return vm.mirrorOf(op.equals("==") == same);
            }
            PrimitiveValue a = unbox(left);
            PrimitiveValue b = unbox(right);
            if (a == null || b == null || a instanceof BooleanValue || b instanceof BooleanValue) {
                throw new DebugException("'" + op + "' needs numbers, not " + (left == null ? "null" : left.type().name())
                        + " and " + (right == null ? "null" : right.type().name()));
            }
            String kind = Numbers.promoted(a.type().name(), b.type().name());
            try {
                switch (op) {
                    case "<":
                        return vm.mirrorOf(Numbers.compare(a, b, kind) < 0);
                    case "<=":
                        return vm.mirrorOf(Numbers.compare(a, b, kind) <= 0);
                    case ">":
                        return vm.mirrorOf(Numbers.compare(a, b, kind) > 0);
                    case ">=":
                        return vm.mirrorOf(Numbers.compare(a, b, kind) >= 0);
                    default:
                        return Numbers.arithmetic(vm, op, a, b, kind);
                }
            } catch (ArithmeticException e) {
                throw new DebugException("java.lang.ArithmeticException: " + e.getMessage());
            }
        }

        private boolean equal(Value left, Value right) throws DebugException {
            if (left == null || right == null) {
                return left == right;
            }
            boolean bothObjects = left instanceof ObjectReference && right instanceof ObjectReference;
            if (bothObjects) {
                return left.equals(right);  // identity, as Java's == on references
            }
            PrimitiveValue a = unbox(left);
            PrimitiveValue b = unbox(right);
            if (a == null || b == null) {
                throw new DebugException("cannot compare " + left.type().name() + " with " + right.type().name());
            }
            if (a instanceof BooleanValue || b instanceof BooleanValue) {
                return a instanceof BooleanValue && b instanceof BooleanValue
                        && ((BooleanValue) a).value() == ((BooleanValue) b).value();
            }
            return Numbers.compare(a, b, Numbers.promoted(a.type().name(), b.type().name())) == 0;
        }
    }

    /** Java's numeric promotions and conversions, on JDI's mirrors. */
    static final class Numbers {
        static final Set<String> PRIMITIVES = Set.of("boolean", "byte", "char", "short", "int", "long", "float", "double");
        private static final List<String> WIDTH = List.of("byte", "short", "char", "int", "long", "float", "double");

        private Numbers() {
        }

        static String boxOf(String kind) {
            switch (kind) {
                case "int":
                    return "java.lang.Integer";
                case "char":
                    return "java.lang.Character";
                default:
                    return "java.lang." + Character.toUpperCase(kind.charAt(0)) + kind.substring(1);
            }
        }

        static String unboxOf(String box) {
            switch (box) {
                case "java.lang.Integer":
                    return "int";
                case "java.lang.Character":
                    return "char";
                default:
                    return box.startsWith("java.lang.") ? box.substring(10).toLowerCase() : "";
            }
        }

        static String unboxedKind(ObjectReference object) {
            String kind = unboxOf(object.referenceType().name());
            return PRIMITIVES.contains(kind) ? kind : null;
        }

        static boolean widens(String from, String to) {
            if (from.equals(to)) {
                return true;
            }
            if (from.equals("boolean") || to.equals("boolean") || to.equals("char") || to.equals("byte")) {
                return false;
            }
            if (from.equals("char")) {
                return WIDTH.indexOf(to) >= WIDTH.indexOf("int");
            }
            if (to.equals("short")) {
                return from.equals("byte");
            }
            return WIDTH.indexOf(to) > WIDTH.indexOf(from);
        }

        /** The distance from `type` up to the class or interface named `name`, or -1 where it is not one. */
        static int distance(ReferenceType type, String name) {
            if (type.name().equals(name)) {
                return 0;
            }
            if (name.equals("java.lang.Object")) {
                return 10;
            }
            if (type instanceof ClassType) {
                int steps = 1;
                for (ClassType up = ((ClassType) type).superclass(); up != null; up = up.superclass(), steps++) {
                    if (up.name().equals(name)) {
                        return steps;
                    }
                }
                for (InterfaceType iface : ((ClassType) type).allInterfaces()) {
                    if (iface.name().equals(name)) {
                        return 5;
                    }
                }
            } else if (type instanceof InterfaceType) {
                for (InterfaceType iface : ((InterfaceType) type).superinterfaces()) {
                    if (distance(iface, name) >= 0) {
                        return 5;
                    }
                }
            }
            return -1;
        }

        static String promoted(String a, String b) {
            if (a.equals("double") || b.equals("double")) {
                return "double";
            }
            if (a.equals("float") || b.equals("float")) {
                return "float";
            }
            if (a.equals("long") || b.equals("long")) {
                return "long";
            }
            return "int";
        }

        static int compare(PrimitiveValue a, PrimitiveValue b, String kind) {
            switch (kind) {
                case "double":
                case "float":
                    return Double.compare(a.doubleValue(), b.doubleValue());
                default:
                    return Long.compare(a.longValue(), b.longValue());
            }
        }

        static Value arithmetic(VirtualMachine vm, String op, PrimitiveValue a, PrimitiveValue b, String kind)
                throws DebugException {
            switch (kind) {
                case "double": {
                    double x = a.doubleValue();
                    double y = b.doubleValue();
                    return vm.mirrorOf(op.equals("+") ? x + y : op.equals("-") ? x - y : op.equals("*") ? x * y
                            : op.equals("/") ? x / y : x % y);
                }
                case "float": {
                    float x = a.floatValue();
                    float y = b.floatValue();
                    return vm.mirrorOf(op.equals("+") ? x + y : op.equals("-") ? x - y : op.equals("*") ? x * y
                            : op.equals("/") ? x / y : x % y);
                }
                case "long": {
                    long x = a.longValue();
                    long y = b.longValue();
                    return vm.mirrorOf(op.equals("+") ? x + y : op.equals("-") ? x - y : op.equals("*") ? x * y
                            : op.equals("/") ? x / y : x % y);
                }
                default: {
                    int x = a.intValue();
                    int y = b.intValue();
                    return vm.mirrorOf(op.equals("+") ? x + y : op.equals("-") ? x - y : op.equals("*") ? x * y
                            : op.equals("/") ? x / y : x % y);
                }
            }
        }

        static PrimitiveValue convert(VirtualMachine vm, PrimitiveValue value, String kind) throws DebugException {
            String from = value.type().name();
            if (from.equals(kind)) {
                return value;
            }
            if (!widens(from, kind) && !(value instanceof IntegerValue && (kind.equals("byte") || kind.equals("short")
                    || kind.equals("char")))) {
                throw new DebugException("a " + from + " is not a " + kind);
            }
            switch (kind) {
                case "byte":
                    return vm.mirrorOf(value.byteValue());
                case "short":
                    return vm.mirrorOf(value.shortValue());
                case "char":
                    return vm.mirrorOf(value.charValue());
                case "int":
                    return vm.mirrorOf(value.intValue());
                case "long":
                    return vm.mirrorOf(value.longValue());
                case "float":
                    return vm.mirrorOf(value.floatValue());
                case "double":
                    return vm.mirrorOf(value.doubleValue());
                default:
                    throw new DebugException("a " + from + " is not a " + kind);
            }
        }

        static String text(PrimitiveValue value) {
            if (value instanceof BooleanValue) {
                return String.valueOf(((BooleanValue) value).value());
            }
            if (value instanceof CharValue) {
                return String.valueOf(((CharValue) value).value());
            }
            if (value instanceof DoubleValue) {
                return String.valueOf(((DoubleValue) value).value());
            }
            if (value instanceof FloatValue) {
                return String.valueOf(((FloatValue) value).value());
            }
            return String.valueOf(value.longValue());
        }
    }
}
