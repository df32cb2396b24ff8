package io.remus.verbs;

/** A child-JVM entry point playing one {@link CmPeer} role: {@code listen|connect DEVICE ADDRESS PORT}. */
public final class CmPeerMain {
    private CmPeerMain() {
    }

    /**
     * @param args role, device, address, port
     * @throws InterruptedException if interrupted while connecting
     */
    public static void main(String[] args) throws InterruptedException {
        int port = Integer.parseInt(args[3]);
        if (args[0].equals("listen")) {
            CmPeer.listen(args[1], args[2], port);
        } else {
            CmPeer.connect(args[1], args[2], port);
        }
        System.out.println("cm peer " + args[0] + ": ok");
    }
}
