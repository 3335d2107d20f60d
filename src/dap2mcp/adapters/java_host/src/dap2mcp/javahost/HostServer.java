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

    HostServer(InputStream input, OutputStream output, IProviderContext providers, Connectors connectors,
               Evaluator evaluator) {
        super(input, output, providers);
        this.connectors = connectors;
        this.evaluator = evaluator;
    }

    @Override
    protected void dispatchRequest(Messages.Request request) {
        JsonObject arguments = request.arguments == null ? new JsonObject() : request.arguments;
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
            default:
                super.dispatchRequest(request);
        }
    }

    @Override
    public void sendResponse(Messages.Response response) {
        if ("initialize".equals(response.command) && response.success && response.body != null) {
            JsonObject body = JsonUtils.toJsonTree(response.body, response.body.getClass()).getAsJsonObject();
            body.addProperty("supportsExceptionOptions", true);
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
