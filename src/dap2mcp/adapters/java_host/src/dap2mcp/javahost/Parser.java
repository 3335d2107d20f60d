package dap2mcp.javahost;

import com.microsoft.java.debug.core.DebugException;
import java.util.ArrayList;
import java.util.List;

/**
 * The Java expressions the Evaluator takes, parsed into a small tree: literals, names, {@code this}, fields, method
 * calls, array elements, unary {@code ! - +}, binary {@code * / % + - < <= > >= == != && ||}, {@code ? :}, and one
 * assignment at the top. Anything else is refused here, naming what was found.
 */
final class Parser {
    interface Node {
    }

    record Literal(Object value) implements Node {
    }

    record Name(String name) implements Node {
    }

    record This() implements Node {
    }

    record Member(Node target, String name) implements Node {
    }

    record Call(Node target, String name, List<Node> args) implements Node {
    }

    record Index(Node target, Node index) implements Node {
    }

    record Unary(String op, Node operand) implements Node {
    }

    record Binary(String op, Node left, Node right) implements Node {
    }

    record Conditional(Node test, Node then, Node otherwise) implements Node {
    }

    record Assign(Node target, Node value) implements Node {
    }

    private static final List<String> OPERATORS = List.of("&&", "||", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=",
            "++", "--", "->", "::", "<<", ">>", "(", ")", "[", "]", ".", ",", "?", ":", "!", "-", "+", "*", "/", "%", "<",
            ">", "=", "&", "|", "^", "~", "{", "}", ";", "@");

    private final String source;
    private final List<Object> tokens = new ArrayList<>();
    private int at;

    private record Word(String text) {
    }

    private record Op(String text) {
    }

    private Parser(String source) throws DebugException {
        this.source = source;
        lex();
    }

    static Node parse(String expression) throws DebugException {
        if (expression == null || expression.isBlank()) {
            throw new DebugException("no expression");
        }
        Parser parser = new Parser(expression.strip());
        Node node = parser.assignment();
        if (parser.at < parser.tokens.size()) {
            throw parser.refused("'" + parser.shown(parser.tokens.get(parser.at)) + "'");
        }
        return node;
    }

    private DebugException refused(String what) {
        return new DebugException("cannot evaluate " + what + " in '" + source + "': " + Evaluator.CANNOT
                + "casts, new, lambdas, generics, ++, compound and bit operators are not evaluated");
    }

    private static String shown(Object token) {
        return token instanceof Word ? ((Word) token).text : token instanceof Op ? ((Op) token).text : String.valueOf(token);
    }

    private void lex() throws DebugException {
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (Character.isJavaIdentifierStart(c)) {
                int start = i;
                while (i < n && Character.isJavaIdentifierPart(source.charAt(i))) {
                    i++;
                }
                tokens.add(new Word(source.substring(start, i)));
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(source.charAt(i + 1)))) {
                i = number(i);
            } else if (c == '"') {
                i = string(i);
            } else if (c == '\'') {
                StringBuilder text = new StringBuilder();
                i = quoted(i, '\'', text);
                if (text.length() != 1) {
                    throw new DebugException("a char literal holds one character: " + source);
                }
                tokens.add(new Literal(text.charAt(0)));
            } else {
                String op = null;
                for (String candidate : OPERATORS) {
                    if (source.startsWith(candidate, i)) {
                        op = candidate;
                        break;
                    }
                }
                if (op == null) {
                    throw new DebugException("cannot read '" + c + "' in '" + source + "'");
                }
                tokens.add(new Op(op));
                i += op.length();
            }
        }
    }

    private int number(int start) throws DebugException {
        int i = start;
        int n = source.length();
        boolean hex = source.startsWith("0x", i) || source.startsWith("0X", i);
        if (hex) {
            i += 2;
        }
        while (i < n && (Character.isLetterOrDigit(source.charAt(i)) || source.charAt(i) == '.' || source.charAt(i) == '_'
                || ((source.charAt(i) == '-' || source.charAt(i) == '+') && !hex
                && (source.charAt(i - 1) == 'e' || source.charAt(i - 1) == 'E')))) {
            i++;
        }
        String text = source.substring(start, i).replace("_", "");
        try {
            char last = Character.toLowerCase(text.charAt(text.length() - 1));
            if (hex) {
                boolean isLong = last == 'l';
                String digits = text.substring(2, isLong ? text.length() - 1 : text.length());
                long value = Long.parseUnsignedLong(digits, 16);
                tokens.add(new Literal(isLong ? (Object) value : (Object) (int) value));
            } else if (last == 'l') {
                tokens.add(new Literal(Long.parseLong(text.substring(0, text.length() - 1))));
            } else if (last == 'f') {
                tokens.add(new Literal(Float.parseFloat(text)));
            } else if (last == 'd' || text.contains(".") || text.contains("e") || text.contains("E")) {
                tokens.add(new Literal(Double.parseDouble(text)));
            } else {
                tokens.add(new Literal(Integer.parseInt(text)));
            }
        } catch (NumberFormatException e) {
            throw new DebugException("not a number: " + text);
        }
        return i;
    }

    private int string(int start) throws DebugException {
        StringBuilder text = new StringBuilder();
        int i = quoted(start, '"', text);
        tokens.add(new Literal(text.toString()));
        return i;
    }

    private int quoted(int start, char quote, StringBuilder text) throws DebugException {
        int i = start + 1;
        int n = source.length();
        while (i < n && source.charAt(i) != quote) {
            char c = source.charAt(i);
            if (c == '\\' && i + 1 < n) {
                char e = source.charAt(++i);
                switch (e) {
                    case 'n': text.append('\n'); break;
                    case 't': text.append('\t'); break;
                    case 'r': text.append('\r'); break;
                    case 'b': text.append('\b'); break;
                    case 'f': text.append('\f'); break;
                    case '0': text.append('\0'); break;
                    case 'u':
                        if (i + 4 >= n) {
                            throw new DebugException("a \\u escape needs four hex digits: " + source);
                        }
                        text.append((char) Integer.parseInt(source.substring(i + 1, i + 5), 16));
                        i += 4;
                        break;
                    default: text.append(e);
                }
                i++;
            } else {
                text.append(c);
                i++;
            }
        }
        if (i >= n) {
            throw new DebugException("a literal is not closed: " + source);
        }
        return i + 1;
    }

    private boolean sees(String op) {
        return at < tokens.size() && tokens.get(at) instanceof Op && ((Op) tokens.get(at)).text.equals(op);
    }

    private boolean takes(String op) {
        if (sees(op)) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(String op) throws DebugException {
        if (!takes(op)) {
            throw refused(at < tokens.size() ? "'" + shown(tokens.get(at)) + "' where '" + op + "' was expected"
                    : "the end, where '" + op + "' was expected");
        }
    }

    private Node assignment() throws DebugException {
        Node target = conditional();
        if (takes("=")) {
            if (!(target instanceof Name || target instanceof Member || target instanceof Index)) {
                throw refused("an assignment to something that is no variable, field or array element");
            }
            return new Assign(target, conditional());
        }
        return target;
    }

    private Node conditional() throws DebugException {
        Node test = binary(0);
        if (takes("?")) {
            Node then = conditional();
            expect(":");
            return new Conditional(test, then, conditional());
        }
        return test;
    }

    private static final List<List<String>> LEVELS = List.of(
            List.of("||"), List.of("&&"), List.of("==", "!="), List.of("<", "<=", ">", ">="), List.of("+", "-"),
            List.of("*", "/", "%"));

    private Node binary(int level) throws DebugException {
        if (level == LEVELS.size()) {
            return unary();
        }
        Node left = binary(level + 1);
        while (true) {
            String found = null;
            for (String op : LEVELS.get(level)) {
                if (sees(op)) {
                    found = op;
                    break;
                }
            }
            if (found == null) {
                return left;
            }
            at++;
            left = new Binary(found, left, binary(level + 1));
        }
    }

    private Node unary() throws DebugException {
        for (String op : List.of("!", "-", "+")) {
            if (takes(op)) {
                return new Unary(op, unary());
            }
        }
        if (sees("(") && castAhead()) {
            throw refused("a cast");
        }
        return postfix(primary());
    }

    /** `(Name) x` or `(int) x`: a parenthesised type followed by an operand. */
    private boolean castAhead() {
        int i = at + 1;
        if (i < tokens.size() && tokens.get(i) instanceof Word) {
            while (i + 2 < tokens.size() && tokens.get(i + 1) instanceof Op && ((Op) tokens.get(i + 1)).text.equals(".")
                    && tokens.get(i + 2) instanceof Word) {
                i += 2;
            }
            if (i + 2 < tokens.size() && tokens.get(i + 1) instanceof Op && ((Op) tokens.get(i + 1)).text.equals(")")) {
                Object next = tokens.get(i + 2);
                String word = tokens.get(i) instanceof Word ? ((Word) tokens.get(i)).text : "";
                return next instanceof Word || next instanceof Literal
                        || (next instanceof Op && ((Op) next).text.equals("(") && Evaluator.Numbers.PRIMITIVES.contains(word));
            }
        }
        return false;
    }

    private Node primary() throws DebugException {
        if (at >= tokens.size()) {
            throw refused("the end, where a value was expected");
        }
        Object token = tokens.get(at++);
        if (token instanceof Literal) {
            return (Literal) token;
        }
        if (token instanceof Word) {
            String word = ((Word) token).text;
            switch (word) {
                case "true":
                    return new Literal(Boolean.TRUE);
                case "false":
                    return new Literal(Boolean.FALSE);
                case "null":
                    return new Literal(null);
                case "this":
                    return new This();
                case "new":
                case "instanceof":
                case "super":
                case "switch":
                case "class":
                    throw refused("'" + word + "'");
                default:
                    if (sees("(")) {
                        return new Call(null, word, arguments());
                    }
                    return new Name(word);
            }
        }
        String op = ((Op) token).text;
        if (op.equals("(")) {
            Node inner = assignmentInside();
            expect(")");
            return inner;
        }
        throw refused("'" + op + "'");
    }

    private Node assignmentInside() throws DebugException {
        return conditional();
    }

    private List<Node> arguments() throws DebugException {
        expect("(");
        List<Node> args = new ArrayList<>();
        if (takes(")")) {
            return args;
        }
        do {
            args.add(conditional());
        } while (takes(","));
        expect(")");
        return args;
    }

    private Node postfix(Node node) throws DebugException {
        while (true) {
            if (takes(".")) {
                if (at >= tokens.size() || !(tokens.get(at) instanceof Word)) {
                    throw refused("'.' without a name after it");
                }
                String name = ((Word) tokens.get(at++)).text;
                if (name.equals("class")) {
                    throw refused("'.class'");
                }
                node = sees("(") ? new Call(node, name, arguments()) : new Member(node, name);
            } else if (takes("[")) {
                Node index = conditional();
                expect("]");
                node = new Index(node, index);
            } else {
                return node;
            }
        }
    }
}
