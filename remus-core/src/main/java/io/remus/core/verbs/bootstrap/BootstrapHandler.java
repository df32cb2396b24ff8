package io.remus.core.verbs.bootstrap;

/** What a {@link BootstrapServer} does with the requests it receives. */
public interface BootstrapHandler {
    /**
     * Serves one request.
     *
     * @param request a {@link BootstrapMessage.RegionsRequest} or {@link BootstrapMessage.ConnectRequest}
     * @return the reply
     */
    BootstrapMessage handle(BootstrapMessage request);
}
