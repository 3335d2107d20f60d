package dap2mcp.javahost;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.microsoft.java.debug.core.adapter.IDebugAdapterContext;
import com.microsoft.java.debug.core.adapter.IProviderContext;
import com.microsoft.java.debug.core.adapter.ProtocolServer;
import com.microsoft.java.debug.core.protocol.Events;
import com.microsoft.java.debug.core.protocol.JsonUtils;
import com.microsoft.java.debug.core.protocol.Messages;
import com.microsoft.java.debug.core.protocol.Responses;
import com.microsoft.java.debug.core.protocol.Types;
import com.microsoft.java.debug.core.JdiExceptionReference;
import com.sun.jdi.ClassType;
import com.sun.jdi.Method;
import com.sun.jdi.ObjectReference;
import com.sun.jdi.StringReference;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.Value;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The library's protocol server, with what dap2mcp needs around it:
 *
 * - `launch` may carry `command`: the program's whole command line, `{jdwp}` where the JDWP agent's option goes
 *   (`java {jdwp} -cp … Main a b`, or `mvn … -DargLine={jdwp}` for a test run). The library asks the client to run
 *   its own `java` command line (`runInTerminal`); the host asks for this one instead, with the agent's option the
 *   library chose, so arguments stay a list and a build tool can start the JVM.
 * - `exited` is not passed on: the library says 0 whatever the program's code, and the client, which started the
 *   program, reads the real one.
 * - exception breakpoints by class (`exceptionOptions` with a path of class names) and the `failedAssertion` filter,
 *   which the library lacks: see ExceptionTypes.
 */
final class HostServer extends ProtocolServer {
    private final Connectors connectors;
    private final Evaluator evaluator;
    private final ExceptionTypes exceptions = new ExceptionTypes();
    private volatile List<String> command;
    /** `setExpression` requests answered through the library's `evaluate` of an assignment, by sequence number. */
    private final java.util.Set<Integer> assignments = java.util.concurrent.ConcurrentHashMap.newKeySet();

    HostServer(InputStream input, OutputStream output, IProviderContext providers, Connectors connectors,
               Evaluator evaluator) {
        super(input, output, providers);
        this.connectors = connectors;
        this.evaluator = evaluator;
    }

    /** The launched program ended before its JVM connected: no VM to debug, and the session's requests answered here. */
    private volatile boolean ended;

    @Override
    protected void dispatchRequest(Messages.Request request) {
        JsonObject arguments = request.arguments == null ? new JsonObject() : request.arguments;
        if (ended && !"disconnect".equals(request.command)) {
            answerEnded(request, arguments);
            return;
        }
        switch (request.command) {
            case "launch":
                if (arguments.has("command")) {
                    List<String> words = new ArrayList<>();
                    for (JsonElement word : arguments.getAsJsonArray("command")) {
                        words.add(word.getAsString());
                    }
                    command = words;
                    arguments.remove("command");
                }
                if (arguments.has("connectWithin")) {
                    connectors.acceptWithin((long) (arguments.get("connectWithin").getAsDouble() * 1000));
                    arguments.remove("connectWithin");
                }
                arguments.addProperty("console", "integratedTerminal");
                request.arguments = arguments;
                super.dispatchRequest(request);
                return;
            case "setExceptionBreakpoints":
                ExceptionTypes.Asked asked = ExceptionTypes.read(arguments);
                request.arguments = asked.libraryArguments();
                super.dispatchRequest(request);
                IDebugAdapterContext context = evaluator.context();
                if (context != null && context.getDebugSession() != null) {
                    exceptions.install(context.getDebugSession(), asked.types());
                }
                return;
            case "setExpression": {
                // `x = value` evaluated by the Evaluator, answered as the library answers an evaluation
                JsonObject evaluation = new JsonObject();
                evaluation.addProperty("expression", arguments.get("expression").getAsString() + " = "
                        + arguments.get("value").getAsString());
                if (arguments.has("frameId")) {
                    evaluation.add("frameId", arguments.get("frameId"));
                }
                evaluation.addProperty("context", "repl");
                assignments.add(request.seq);
                super.dispatchRequest(new Messages.Request(request.seq, "evaluate", evaluation));
                return;
            }
            case "variables":
                request.arguments = paged(arguments);
                super.dispatchRequest(request);
                return;
            case "exceptionInfo":
                exceptionInfo(request, arguments);
                return;
            default:
                super.dispatchRequest(request);
        }
    }

    /**
     * After a launch whose program ended before its JVM connected (Maven's Surefire when no test matched its filter
     * forks no JVM; `java` that cannot find the main class): the configuration the client still sends is taken with
     * nothing to apply it to, so the client sees the program's end, its output and its exit code, as for any program
     * that ends at once.
     */
    private void answerEnded(Messages.Request request, JsonObject arguments) {
        Messages.Response response = new Messages.Response(request.seq, request.command, true);
        JsonObject body = new JsonObject();
        switch (request.command) {
            case "setBreakpoints": {
                JsonArray answers = new JsonArray();
                int count = arguments.has("breakpoints") ? arguments.getAsJsonArray("breakpoints").size() : 0;
                for (int i = 0; i < count; i++) {
                    JsonObject one = new JsonObject();
                    one.addProperty("verified", false);
                    one.addProperty("message", "the program has ended");
                    answers.add(one);
                }
                body.add("breakpoints", answers);
                break;
            }
            case "threads":
                body.add("threads", new JsonArray());
                break;
            case "setExceptionBreakpoints":
            case "configurationDone":
                break;
            default:
                response = new Messages.Response(request.seq, request.command, false, "the program has ended");
        }
        response.body = response.success ? body : null;
        super.sendResponse(response);
    }

    /**
     * A page of a value's children as the library takes one: it pages only arrays and lists, and only within their
     * size ("Invalid array range: 0 to 100"), where a client asks for "at most N". So the page is cut to the size, and
     * not asked for at all of an object's fields, which are all listed.
     */
    private JsonObject paged(JsonObject arguments) {
        if (!arguments.has("count") && !arguments.has("start")) {
            return arguments;
        }
        IDebugAdapterContext context = evaluator.context();
        Object held = context == null || !arguments.has("variablesReference") ? null
                : context.getRecyclableIdPool().getObjectById(arguments.get("variablesReference").getAsInt());
        Object value = held instanceof com.microsoft.java.debug.core.adapter.variables.VariableProxy
                ? ((com.microsoft.java.debug.core.adapter.variables.VariableProxy) held).getProxiedVariable() : null;
        int size = -1;
        if (value instanceof com.sun.jdi.ArrayReference) {
            size = ((com.sun.jdi.ArrayReference) value).length();
        } else if (value instanceof ObjectReference && com.microsoft.java.debug.core.adapter.variables
                .JavaLogicalStructureManager.isIndexedVariable((ObjectReference) value)) {
            try {
                Value logical = com.microsoft.java.debug.core.adapter.variables.JavaLogicalStructureManager.getLogicalSize(
                        (ObjectReference) value,
                        ((com.microsoft.java.debug.core.adapter.variables.VariableProxy) held).getThread(), evaluator);
                size = logical instanceof com.sun.jdi.IntegerValue ? ((com.sun.jdi.IntegerValue) logical).value() : -1;
            } catch (Exception e) {
                size = -1;
            }
        }
        if (size < 0) {
            arguments.remove("start");
            arguments.remove("count");
            return arguments;
        }
        int start = arguments.has("start") ? Math.max(0, arguments.get("start").getAsInt()) : 0;
        int count = arguments.has("count") ? arguments.get("count").getAsInt() : size - start;
        arguments.addProperty("start", Math.min(start, size));
        arguments.addProperty("count", Math.max(0, Math.min(count, size - start)));
        return arguments;
    }

    /**
     * The exception a thread stopped at: its class, and its message apart ({@code getMessage()}, called in the
     * program), where the library gives its toString() in quotes and no details.
     */
    private void exceptionInfo(Messages.Request request, JsonObject arguments) {
        IDebugAdapterContext context = evaluator.context();
        long threadId = arguments.has("threadId") ? arguments.get("threadId").getAsLong() : -1;
        JdiExceptionReference thrown = context == null ? null : context.getExceptionManager().getException(threadId);
        if (thrown == null) {
            super.dispatchRequest(request);
            return;
        }
        ObjectReference exception = thrown.exception;
        String type = exception.referenceType().name();
        String message = null;
        ThreadReference thread = null;
        for (ThreadReference candidate : context.getDebugSession().getAllThreads()) {
            if (candidate.uniqueID() == threadId) {
                thread = candidate;
            }
        }
        if (thread != null) {
            try {
                Method getMessage = ((ClassType) exception.referenceType()).concreteMethodByName("getMessage",
                        "()Ljava/lang/String;");
                Value said = exception.invokeMethod(thread, getMessage, List.of(), ObjectReference.INVOKE_SINGLE_THREADED);
                message = said instanceof StringReference ? ((StringReference) said).value() : null;
            } catch (Exception e) {
                message = null;
            } finally {
                context.getStackFrameManager().reloadStackFrames(thread);
            }
        }
        Types.ExceptionDetails details = new Types.ExceptionDetails();
        details.message = message;
        details.fullTypeName = type;
        details.typeName = Shown.simple(type);
        Messages.Response response = new Messages.Response(request.seq, request.command, true);
        response.body = new Responses.ExceptionInfoResponse(type, message == null ? type : type + ": " + message,
                thrown.isUncaught ? Types.ExceptionBreakMode.UNHANDLED : Types.ExceptionBreakMode.ALWAYS, details);
        sendResponse(response);
    }

    @Override
    public void sendResponse(Messages.Response response) {
        if ("launch".equals(response.command) && !response.success && connectors.programEnded()) {
            ended = true;
            super.sendResponse(new Messages.Response(response.request_seq, response.command, true));
            super.sendEvent(new Events.TerminatedEvent());
            return;
        }
        if ("evaluate".equals(response.command) && assignments.remove(response.request_seq)) {
            response.command = "setExpression";
            if (response.body instanceof Responses.EvaluateResponseBody) {
                Responses.EvaluateResponseBody evaluated = (Responses.EvaluateResponseBody) response.body;
                JsonObject body = new JsonObject();
                body.addProperty("value", Shown.once(evaluated.result));
                body.addProperty("type", evaluated.type);
                body.addProperty("variablesReference", evaluated.variablesReference);
                response.body = body;
            }
        }
        if (response.body instanceof Responses.VariablesResponseBody) {
            Types.Variable[] variables = ((Responses.VariablesResponseBody) response.body).variables;
            boolean elements = variables != null && variables.length > 0;
            for (Types.Variable variable : variables == null ? new Types.Variable[0] : variables) {
                variable.value = Shown.once(variable.value);
                elements &= variable.name != null && variable.name.matches("\\d+");
            }
            if (elements) {  // an array's or a list's elements, named as Java indexes them
                for (Types.Variable variable : variables) {
                    variable.name = "[" + variable.name + "]";
                }
            }
        } else if (response.body instanceof Responses.EvaluateResponseBody) {
            Responses.EvaluateResponseBody body = (Responses.EvaluateResponseBody) response.body;
            body.result = Shown.once(body.result);
        } else if (response.body instanceof Responses.SetVariablesResponseBody) {
            Responses.SetVariablesResponseBody body = (Responses.SetVariablesResponseBody) response.body;
            body.value = Shown.once(body.value);
        }
        if ("initialize".equals(response.command) && response.success && response.body != null) {
            JsonObject body = JsonUtils.toJsonTree(response.body, response.body.getClass()).getAsJsonObject();
            body.addProperty("supportsExceptionOptions", true);
            body.addProperty("supportsSetExpression", true);
            JsonArray filters = body.has("exceptionBreakpointFilters") ? body.getAsJsonArray("exceptionBreakpointFilters")
                    : new JsonArray();
            JsonObject assertion = new JsonObject();
            assertion.addProperty("filter", ExceptionTypes.FAILED_ASSERTION);
            assertion.addProperty("label", "Failed assertions (java.lang.AssertionError, JUnit's and all)");
            filters.add(assertion);
            body.add("exceptionBreakpointFilters", filters);
            response.body = body;
        }
        super.sendResponse(response);
    }

    @Override
    public void sendEvent(Events.DebugEvent event) {
        if (event instanceof Events.ExitedEvent) {
            return;
        }
        super.sendEvent(event);
    }

    @Override
    public CompletableFuture<Messages.Response> sendRequest(Messages.Request request) {
        return watched(request, super.sendRequest(rewritten(request)));
    }

    @Override
    public CompletableFuture<Messages.Response> sendRequest(Messages.Request request, long timeout) {
        return watched(request, super.sendRequest(rewritten(request), timeout));
    }

    private Messages.Request rewritten(Messages.Request request) {
        List<String> own = command;
        if (!"runInTerminal".equals(request.command) || own == null || request.arguments == null) {
            return request;
        }
        String agent = null;
        for (JsonElement word : request.arguments.getAsJsonArray("args")) {
            if (word.getAsString().startsWith("-agentlib:jdwp=")) {
                agent = word.getAsString();
            }
        }
        if (agent == null) {
            return request;
        }
        JsonArray args = new JsonArray();
        for (String word : own) {
            args.add(word.replace("{jdwp}", agent));
        }
        request.arguments.add("args", args);
        return request;
    }

    private CompletableFuture<Messages.Response> watched(Messages.Request request,
                                                         CompletableFuture<Messages.Response> answer) {
        if ("runInTerminal".equals(request.command)) {
            return answer.thenApply(response -> {
                if (response != null && response.success && response.body != null) {
                    JsonObject body = JsonUtils.toJsonTree(response.body, response.body.getClass()).getAsJsonObject();
                    if (body.has("processId")) {
                        connectors.program(body.get("processId").getAsLong());
                    }
                }
                return response;
            });
        }
        return answer;
    }
}
