package io.remus.core.verbs.bootstrap;

/** What a {@link BootstrapServer} does with the requests it receives. */
public interface BootstrapHandler {
    /**
     * Serves one request.
     *
     * @param request a {@link BootstrapMessage.RegionsRequest} or {@link BootstrapMessage.ConnectRequest}
     * @return the reply: a {@link BootstrapMessage.RegionsReply}, {@link BootstrapMessage.ConnectReply}
     *         or {@link BootstrapMessage.ErrorReply}
     */
    BootstrapMessage handle(BootstrapMessage request);

    /**
     * Told about every exchange that did not end with the reply {@link #handle} gave: a malformed
     * request, a handler that threw or returned what is no reply, a reply that cannot be encoded,
     * a peer that went away or ran past the exchange deadline. Where the peer could still be told,
     * it was sent an {@link BootstrapMessage.ErrorReply} with the same problem. Called on a server
     * thread, never under the handler's lock; what it throws is dropped. The default logs the
     * problem with {@link System.Logger} ({@code WARNING}, the logger named after
     * {@link BootstrapServer}).
     *
     * @param problem what went wrong, naming the peer
     * @param cause   the exception behind it
     */
    default void exchangeFailed(String problem, Throwable cause) {
        System.getLogger(BootstrapServer.class.getName()).log(System.Logger.Level.WARNING, problem, cause);
    }
}
