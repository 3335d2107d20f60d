package dap2mcp.javahost;

import com.microsoft.java.debug.core.adapter.IDebugAdapterContext;
import com.microsoft.java.debug.core.adapter.StackTraceProvider;
import com.microsoft.java.debug.core.adapter.formatter.IValueFormatter;
import com.microsoft.java.debug.core.adapter.stacktrace.DecodedMethod;
import com.sun.jdi.ClassType;
import com.sun.jdi.DoubleValue;
import com.sun.jdi.Field;
import com.sun.jdi.FloatValue;
import com.sun.jdi.Method;
import com.sun.jdi.ObjectReference;
import com.sun.jdi.PrimitiveValue;
import com.sun.jdi.StringReference;
import com.sun.jdi.Type;
import com.sun.jdi.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** How frames and numbers read, as a Java user writes them, where the library's own way differs. */
final class Shown {
    private Shown() {
    }

    /**
     * A frame's function as {@code Orders.total(Order)}: the class (nested ones after a dot, without the package), the
     * method, its parameters' simple types. The library's own names leave the method out.
     */
    static final class Frames extends StackTraceProvider {
        @Override
        public DecodedMethod decode(Method method) {
            return new DecodedMethod() {
                @Override
                public String format() {
                    List<String> parameters = new ArrayList<>();
                    for (String type : method.argumentTypeNames()) {
                        parameters.add(simple(type));
                    }
                    String name = method.isConstructor() ? "<init>" : method.isStaticInitializer() ? "<clinit>" : method.name();
                    return simple(method.declaringType().name()) + "." + name + "(" + String.join(", ", parameters) + ")"
                            + (method.isNative() ? " [native]" : "");
                }

                @Override
                public boolean isGenerated() {
                    return method.isBridge() || method.isSynthetic();
                }
            };
        }
    }

    /** A class's name without its package, a nested class's after a dot ({@code Orders.Item}); anonymous ones keep $1. */
    static String simple(String name) {
        String bare = name.substring(name.lastIndexOf('.') + 1);
        return bare.replaceAll("\\$(?=[^\\d])", ".");
    }

    /**
     * A boxed number, char or boolean as its value ({@code 2}, not {@code Integer@61}) and an enum constant as its name
     * ({@code NEW}): read from their fields, so no call runs in the program. The library adds the value's toString()
     * after it ({@code 2 "2"}), which HostServer takes out again where it only repeats the value.
     */
    static final class Plain implements IValueFormatter {
        private static final Set<String> BOXES = Set.of("java.lang.Integer", "java.lang.Long", "java.lang.Short",
                "java.lang.Byte", "java.lang.Double", "java.lang.Float", "java.lang.Character", "java.lang.Boolean");

        static void install(IDebugAdapterContext context) {
            context.getVariableFormatter().registerValueFormatter(new Plain(), 3);
        }

        @Override
        public String toString(Object value, Map<String, Object> options) {
            ObjectReference object = (ObjectReference) value;
            ClassType type = (ClassType) object.referenceType();
            if (BOXES.contains(type.name())) {
                Value inner = object.getValue(type.fieldByName("value"));
                if (inner instanceof DoubleValue || inner instanceof FloatValue) {
                    return new Fractions().toString(inner, options);
                }
                String text = inner instanceof PrimitiveValue ? Evaluator.Numbers.text((PrimitiveValue) inner) : "?";
                return type.name().equals("java.lang.Character") ? "'" + text + "'" : text;
            }
            for (ClassType up = type; up != null; up = up.superclass()) {
                Field name = up.fieldByName("name");
                if (up.name().equals("java.lang.Enum") && name != null) {
                    Value said = object.getValue(name);
                    return said instanceof StringReference ? ((StringReference) said).value() : "?";
                }
            }
            return "?";
        }

        @Override
        public boolean acceptType(Type type, Map<String, Object> options) {
            if (!(type instanceof ClassType)) {
                return false;
            }
            ClassType classType = (ClassType) type;
            return BOXES.contains(classType.name()) || classType.isEnum()
                    || (classType.superclass() != null && classType.superclass().isEnum());  // a constant with a body
        }

        @Override
        public Value valueOf(String value, Type type, Map<String, Object> options) {
            throw new UnsupportedOperationException("set a boxed value or an enum by an expression ("
                    + "Integer.valueOf(3), Status.PAID)");
        }
    }

    private static final Pattern REPEATED = Pattern.compile("(.+) \"(.*)\"", Pattern.DOTALL);

    /** `2 "2"` (a value, then its toString() that only repeats it) as `2`; `'a' "a"` as `'a'`; others as they are. */
    static String once(String value) {
        if (value == null) {
            return null;
        }
        Matcher found = REPEATED.matcher(value);
        if (found.matches() && (found.group(1).equals(found.group(2)) || found.group(1).equals("'" + found.group(2) + "'"))) {
            return found.group(1);
        }
        return value;
    }

    /** Doubles and floats as Java prints them ({@code 4.5}, {@code 1.0E-9}), not with six decimals ({@code 4.500000}). */
    static final class Fractions implements IValueFormatter {
        static void install(IDebugAdapterContext context) {
            context.getVariableFormatter().registerValueFormatter(new Fractions(), 3);
        }

        @Override
        public String toString(Object value, Map<String, Object> options) {
            if (value instanceof DoubleValue) {
                return Double.toString(((DoubleValue) value).value());
            }
            return Float.toString(((FloatValue) value).value());
        }

        @Override
        public boolean acceptType(Type type, Map<String, Object> options) {
            return type != null && (type.signature().equals("D") || type.signature().equals("F"));
        }

        @Override
        public Value valueOf(String value, Type type, Map<String, Object> options) {
            String text = value.strip();
            if (type.signature().equals("D")) {
                return type.virtualMachine().mirrorOf(Double.parseDouble(text));
            }
            return type.virtualMachine().mirrorOf(Float.parseFloat(text));
        }
    }
}
