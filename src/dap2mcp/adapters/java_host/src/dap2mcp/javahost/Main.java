package dap2mcp.javahost;

import com.microsoft.java.debug.core.DebugSettings;
import com.microsoft.java.debug.core.adapter.ICompletionsProvider;
import com.microsoft.java.debug.core.adapter.IEvaluationProvider;
import com.microsoft.java.debug.core.adapter.IHotCodeReplaceProvider;
import com.microsoft.java.debug.core.adapter.ISourceLookUpProvider;
import com.microsoft.java.debug.core.adapter.IStackTraceProvider;
import com.microsoft.java.debug.core.adapter.IVirtualMachineManagerProvider;
import com.microsoft.java.debug.core.adapter.ProviderContext;
import com.microsoft.java.debug.core.adapter.variables.IVariableProvider;
import com.microsoft.java.debug.core.adapter.variables.VariableProvider;
import com.microsoft.java.debug.core.adapter.HotCodeReplaceEvent;
import io.reactivex.Observable;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * dap2mcp's host for the java-debug library: a DAP server for the JVM on stdin and stdout.
 *
 * The library carries the protocol and the debugger (breakpoints, steps, stacks, variables, JDI); it leaves to its host
 * what Eclipse JDT LS supplies in VS Code: how a VM is reached (Connectors), where a class's source is and which class
 * a source line belongs to (Sources), and the evaluation of expressions (Evaluator). HostServer adds what dap2mcp
 * asks of the protocol around it (the program's own command line, exception breakpoints by class).
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        // The protocol owns stdout: nothing else may write there. The library logs through java.util.logging (stderr).
        OutputStream protocol = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        Logger.getLogger("java-debug").setLevel(Level.WARNING);
        Logger.getLogger("").setLevel(Level.WARNING);

        DebugSettings settings = DebugSettings.getCurrent();
        settings.showToString = true;
        settings.showLogicalStructure = true;
        settings.showQualifiedNames = false;
        settings.showStaticVariables = false;
        settings.maxStringLength = 0;

        Connectors connectors = new Connectors();
        Evaluator evaluator = new Evaluator();
        ProviderContext providers = new ProviderContext();
        providers.registerProvider(IVirtualMachineManagerProvider.class, connectors);
        providers.registerProvider(ISourceLookUpProvider.class, new Sources());
        providers.registerProvider(IEvaluationProvider.class, evaluator);
        providers.registerProvider(IStackTraceProvider.class, new Shown.Frames());
        providers.registerProvider(IVariableProvider.class, new VariableProvider());
        providers.registerProvider(IHotCodeReplaceProvider.class, new NoHotCodeReplace());
        providers.registerProvider(ICompletionsProvider.class, (ICompletionsProvider) (frame, snippet, line, column) -> List.of());

        HostServer server = new HostServer(System.in, protocol, providers, connectors, evaluator);
        server.run();
        System.exit(0);
    }

    /** Classes are not replaced in a running program here: dap2mcp builds and restarts instead. */
    static final class NoHotCodeReplace implements IHotCodeReplaceProvider {
        @Override
        public void onClassRedefined(Consumer<List<String>> consumer) {
        }

        @Override
        public CompletableFuture<List<String>> redefineClasses() {
            return CompletableFuture.completedFuture(List.of());
        }

        @Override
        public Observable<HotCodeReplaceEvent> getEventHub() {
            return Observable.empty();
        }
    }
}
