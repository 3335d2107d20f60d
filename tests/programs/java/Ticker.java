/** Counts up forever, a tick every 50 ms: a JVM to attach to (started with the JDWP agent by the tests). */
public class Ticker {
    static int ticks;

    public static void main(String[] args) throws InterruptedException {
        String name = args.length > 0 ? args[0] : "ticker";
        while (true) {
            ticks++; // marker: tick
            if (ticks % 20 == 0) {
                System.out.println(name + " " + ticks);
            }
            Thread.sleep(50);
        }
    }
}
