package dev.gantry.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/** Loopback ports for emulators: a free one to bind, and a bounded wait until a child process listens on one. */
final class LoopbackPorts {
    private LoopbackPorts() {}

    /**
     * A port that was free a moment ago. A child process binds it after we release it, so another process could
     * take it in between; on a test machine that race is rare enough, and the start-up wait then fails loudly.
     */
    static int free() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    /** True once something accepts connections on the port, false if nothing did within {@code timeout}. */
    static boolean awaitListening(int port, Duration timeout, ProcessHandle process) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return true;
            } catch (IOException notYet) {
                if (process != null && !process.isAlive()) {
                    return false;
                }
                Thread.sleep(25);
            }
        }
        return false;
    }
}
