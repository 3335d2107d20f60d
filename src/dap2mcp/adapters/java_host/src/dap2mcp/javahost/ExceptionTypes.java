package dap2mcp.javahost;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.microsoft.java.debug.core.IDebugSession;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.EventRequestManager;
import com.sun.jdi.request.ExceptionRequest;
import io.reactivex.disposables.Disposable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Exception breakpoints by class, which the library lacks (its requests take every exception, its class filters are
 * where an exception is thrown, not what it is): one JDI exception request per class asked for, which stops at that
 * class and its subclasses. A class not loaded yet gets its request when it loads. A name without a package
 * (`IllegalStateException`) stands for every class of that simple name.
 *
 * The library stops at every exception event and reports it (`exceptionInfo` included), whichever request made it;
 * it deletes every exception request whenever the filters are set, so these are made again after it each time.
 */
final class ExceptionTypes {
    static final String FAILED_ASSERTION = "failedAssertion";

    /**
     * Where a failed assertion is thrown again on its way to the test runner, which is no new failure: JUnit's engine
     * and platform, Surefire.
     */
    private static final List<String> RUNNERS = List.of("org.junit.platform.*", "org.junit.jupiter.engine.*",
            "org.junit.vintage.*", "org.junit.runner.*", "org.junit.internal.*", "org.apache.maven.surefire.*");

    record Type(String name, boolean caught, boolean uncaught, boolean rethrows) {
        boolean names(ReferenceType type) {
            String full = type.name();
            return name.contains(".") ? full.equals(name) || full.replace('$', '.').equals(name)
                    : full.equals(name) || full.endsWith("." + name) || full.endsWith("$" + name);
        }
    }

    record Asked(JsonObject libraryArguments, List<Type> types) {
    }

    private final List<ClassPrepareRequest> waiting = new ArrayList<>();
    private final Set<ExceptionRequest> made = ConcurrentHashMap.newKeySet();
    private volatile List<Type> types = List.of();
    private Disposable watch;

    /** The request's filters as the library takes them (`caught`, `uncaught`), and the classes asked for apart. */
    static Asked read(JsonObject arguments) {
        boolean caught = false;
        boolean uncaught = false;
        List<Type> types = new ArrayList<>();
        if (arguments.has("filters")) {
            for (JsonElement filter : arguments.getAsJsonArray("filters")) {
                String name = filter.getAsString();
                caught |= name.equals("caught");
                uncaught |= name.equals("uncaught");
                if (name.equals(FAILED_ASSERTION)) {
                    types.add(new Type("java.lang.AssertionError", true, true, false));
                }
            }
        }
        if (arguments.has("exceptionOptions")) {
            for (JsonElement option : arguments.getAsJsonArray("exceptionOptions")) {
                JsonObject one = option.getAsJsonObject();
                String mode = one.has("breakMode") ? one.get("breakMode").getAsString() : "always";
                boolean always = mode.equals("always");
                boolean never = mode.equals("never");
                JsonArray path = one.has("path") ? one.getAsJsonArray("path") : new JsonArray();
                if (path.size() < 2) {  // the whole category: a filter
                    caught |= always;
                    uncaught |= !never;
                    continue;
                }
                for (JsonElement name : path.get(path.size() - 1).getAsJsonObject().getAsJsonArray("names")) {
                    if (!never) {
                        types.add(new Type(name.getAsString(), always, true, true));
                    }
                }
            }
        }
        JsonArray filters = new JsonArray();
        if (caught) {
            filters.add("caught");
        }
        if (uncaught) {
            filters.add("uncaught");
        }
        JsonObject library = new JsonObject();
        library.add("filters", filters);
        return new Asked(library, types);
    }

    synchronized void install(IDebugSession session, List<Type> asked) {
        VirtualMachine vm = session.getVM();
        EventRequestManager requests = vm.eventRequestManager();
        requests.deleteEventRequests(new ArrayList<>(waiting));
        waiting.clear();
        made.clear();  // the library has deleted every exception request already
        types = List.copyOf(asked);
        if (asked.isEmpty()) {
            return;
        }
        if (watch == null) {
            watch = session.getEventHub().events()
                    .filter(event -> event.event instanceof ClassPrepareEvent && waiting.contains(event.event.request()))
                    .subscribe(event -> prepared(((ClassPrepareEvent) event.event).referenceType(), requests));
        }
        List<ReferenceType> loaded = vm.allClasses();
        for (Type type : asked) {
            for (ReferenceType candidate : loaded) {
                if (type.names(candidate)) {
                    request(candidate, type, requests);
                }
            }
            ClassPrepareRequest prepare = requests.createClassPrepareRequest();
            prepare.addClassFilter(type.name.contains(".") ? type.name : "*" + type.name);
            prepare.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
            prepare.enable();
            waiting.add(prepare);
        }
    }

    private synchronized void prepared(ReferenceType loaded, EventRequestManager requests) {
        for (Type type : types) {
            if (type.names(loaded)) {
                request(loaded, type, requests);
            }
        }
    }

    private void request(ReferenceType type, Type asked, EventRequestManager requests) {
        ExceptionRequest request = requests.createExceptionRequest(type, asked.caught, asked.uncaught);
        request.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        if (!asked.rethrows) {
            RUNNERS.forEach(request::addClassExclusionFilter);
        }
        request.enable();
        made.add(request);
    }
}
