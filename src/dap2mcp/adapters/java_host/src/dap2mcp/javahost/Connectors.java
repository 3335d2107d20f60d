package dap2mcp.javahost;

import com.microsoft.java.debug.core.adapter.IVirtualMachineManagerProvider;
import com.sun.jdi.Bootstrap;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.VirtualMachineManager;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.IllegalConnectorArgumentsException;
import com.sun.jdi.connect.LaunchingConnector;
import com.sun.jdi.connect.ListeningConnector;
import com.sun.jdi.connect.Transport;
import com.sun.jdi.connect.TransportTimeoutException;
import com.sun.jdi.connect.spi.Connection;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * How a VM is reached: JDI's own connectors, but the program a launch starts connects to a listener on the loopback
 * only, and the wait for it is as long as the program lives (a Maven build before its test JVM starts can take longer
 * than the library's 20 seconds), and ends as soon as the program does, instead of at a timeout.
 */
final class Connectors implements IVirtualMachineManagerProvider {
    private final VirtualMachineManager jdi = Bootstrap.virtualMachineManager();
    private volatile long programPid = -1;
    private volatile long acceptWithinMillis = 120_000;
    private volatile boolean programEnded;

    /** The process the client started for the launch (runInTerminal's answer): the wait for its VM ends with it. */
    void program(long pid) {
        programPid = pid;
    }

    /** The program the launch started ended before any JVM of it connected (a build tool that ran no JVM). */
    boolean programEnded() {
        return programEnded;
    }

    void acceptWithin(long millis) {
        acceptWithinMillis = millis;
    }

    @Override
    public VirtualMachineManager getVirtualMachineManager() {
        return new Manager();
    }

    private ListeningConnector socketListener() {
        for (ListeningConnector connector : jdi.listeningConnectors()) {
            if (connector.transport().name().equals("dt_socket")) {
                return connector;
            }
        }
        throw new IllegalStateException("this JDK has no socket listening connector (dt_socket)");
    }

    private final class Manager implements VirtualMachineManager {
        @Override
        public LaunchingConnector defaultConnector() {
            return jdi.defaultConnector();
        }

        @Override
        public List<LaunchingConnector> launchingConnectors() {
            return jdi.launchingConnectors();
        }

        @Override
        public List<AttachingConnector> attachingConnectors() {
            return jdi.attachingConnectors();
        }

        @Override
        public List<ListeningConnector> listeningConnectors() {
            return List.of(new Listener(socketListener()));
        }

        @Override
        public List<Connector> allConnectors() {
            return jdi.allConnectors();
        }

        @Override
        public List<VirtualMachine> connectedVirtualMachines() {
            return jdi.connectedVirtualMachines();
        }

        @Override
        public int majorInterfaceVersion() {
            return jdi.majorInterfaceVersion();
        }

        @Override
        public int minorInterfaceVersion() {
            return jdi.minorInterfaceVersion();
        }

        @Override
        public VirtualMachine createVirtualMachine(Connection connection, Process process) throws IOException {
            return jdi.createVirtualMachine(connection, process);
        }

        @Override
        public VirtualMachine createVirtualMachine(Connection connection) throws IOException {
            return jdi.createVirtualMachine(connection);
        }
    }

    private final class Listener implements ListeningConnector {
        private final ListeningConnector socket;

        Listener(ListeningConnector socket) {
            this.socket = socket;
        }

        @Override
        public boolean supportsMultipleConnections() {
            return socket.supportsMultipleConnections();
        }

        @Override
        public String startListening(Map<String, ? extends Connector.Argument> arguments)
                throws IOException, IllegalConnectorArgumentsException {
            Connector.Argument local = arguments.get("localAddress");
            if (local != null) {
                local.setValue("127.0.0.1");
            }
            return socket.startListening(arguments);
        }

        @Override
        public void stopListening(Map<String, ? extends Connector.Argument> arguments)
                throws IOException, IllegalConnectorArgumentsException {
            socket.stopListening(arguments);
        }

        @Override
        public VirtualMachine accept(Map<String, ? extends Connector.Argument> arguments)
                throws IOException, IllegalConnectorArgumentsException {
            Connector.Argument timeout = arguments.get("timeout");
            if (timeout instanceof Connector.IntegerArgument) {
                ((Connector.IntegerArgument) timeout).setValue(500);
            }
            long deadline = System.currentTimeMillis() + acceptWithinMillis;
            while (true) {
                try {
                    return socket.accept(arguments);
                } catch (TransportTimeoutException waiting) {
                    long pid = programPid;
                    if (pid > 0 && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true)) {
                        programEnded = true;
                        throw new IOException("the program ended before its JVM connected to the debugger; "
                                + "its output says why");
                    }
                    if (System.currentTimeMillis() > deadline) {
                        throw new IOException("the program's JVM did not connect to the debugger within "
                                + acceptWithinMillis / 1000 + " s (was it started with the -agentlib:jdwp option "
                                + "the debugger gave it?)");
                    }
                }
            }
        }

        @Override
        public Map<String, Connector.Argument> defaultArguments() {
            return socket.defaultArguments();
        }

        @Override
        public String name() {
            return socket.name();
        }

        @Override
        public String description() {
            return socket.description();
        }

        @Override
        public Transport transport() {
            return socket.transport();
        }
    }
}
