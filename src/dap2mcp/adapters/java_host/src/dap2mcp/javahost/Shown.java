package dap2mcp.javahost;

import com.microsoft.java.debug.core.adapter.IDebugAdapterContext;
import com.microsoft.java.debug.core.adapter.StackTraceProvider;
import com.microsoft.java.debug.core.adapter.formatter.IValueFormatter;
import com.microsoft.java.debug.core.adapter.stacktrace.DecodedMethod;
import com.sun.jdi.DoubleValue;
import com.sun.jdi.FloatValue;
import com.sun.jdi.Method;
import com.sun.jdi.Type;
import com.sun.jdi.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
