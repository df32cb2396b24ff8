package io.remus.core.testing;

import io.remus.core.RemusCluster;
import io.remus.core.config.ClusterConfig;
import io.remus.core.verbs.VerbsFabricOptions;
import io.remus.verbs.testing.DeviceAddress;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The fabric that the child JVMs of a multi-process test join, named by one command-line argument so
 * that one child main serves both: an RDMA device's name, the verbs fabric on that device with each
 * node at the device's IPv4 address; or {@code shm:DIR}, the shared-memory fabric in the directory
 * {@code DIR} ({@link io.remus.core.shm.ShmFabric}), each node at {@value #SHM_HOST} (an address that
 * only names the node there: nothing listens on it).
 *
 * @param device       the RDMA device, or {@code null} on the shared-memory fabric
 * @param shmDirectory the cluster's shared-memory directory, or {@code null} on the verbs fabric
 */
public record ProcessFabric(String device, Path shmDirectory) {
    /** The prefix of a shared-memory fabric's argument. */
    public static final String SHM_PREFIX = "shm:";
    /** Every node's host on the shared-memory fabric. */
    public static final String SHM_HOST = "127.0.0.1";

    /**
     * @param device       the RDMA device, or {@code null} on the shared-memory fabric
     * @param shmDirectory the cluster's shared-memory directory, or {@code null} on the verbs fabric
     * @throws IllegalArgumentException unless exactly one of them is given
     */
    public ProcessFabric {
        if ((device == null) == (shmDirectory == null)) {
            throw new IllegalArgumentException("exactly one of device (" + device + ") and shmDirectory (" + shmDirectory
                    + ") names the fabric");
        }
    }

    /** @param device an RDMA device, e.g. {@code rxe0} @return the verbs fabric on it */
    public static ProcessFabric verbs(String device) {
        return new ProcessFabric(Objects.requireNonNull(device, "device"), null);
    }

    /** @return the shared-memory fabric in a fresh directory ({@link Fabrics#freshShmDirectory()}) */
    public static ProcessFabric freshShm() {
        return new ProcessFabric(null, Fabrics.freshShmDirectory());
    }

    /**
     * @param argument {@link #argument()}'s form: a device name or {@code shm:DIR}
     * @return the fabric it names
     */
    public static ProcessFabric parse(String argument) {
        Objects.requireNonNull(argument, "argument");
        return argument.startsWith(SHM_PREFIX) ? new ProcessFabric(null, Path.of(argument.substring(SHM_PREFIX.length())))
                : verbs(argument);
    }

    /** @return the argument that names this fabric to a child ({@link #parse}) */
    public String argument() {
        return isShm() ? SHM_PREFIX + shmDirectory : device;
    }

    /** @return whether this is the shared-memory fabric */
    public boolean isShm() {
        return shmDirectory != null;
    }

    /** @return every node's host: the device's IPv4 address, or {@value #SHM_HOST} */
    public String host() {
        return isShm() ? SHM_HOST : DeviceAddress.ipv4(device);
    }

    /** @param size the nodes @return {@link #host()} for each */
    public List<String> hosts(int size) {
        return Collections.nCopies(size, host());
    }

    /**
     * @param config         the node's configuration
     * @param connectTimeout how long joining waits for the peers (and, on verbs, for each connection)
     * @return a builder that joins on this fabric ({@link VerbsFabricOptions#cluster} on verbs), for more settings
     */
    public RemusCluster.Builder builder(ClusterConfig config, Duration connectTimeout) {
        return builder(config, connectTimeout, isShm() ? null : VerbsFabricOptions.cluster(device, config, connectTimeout));
    }

    /**
     * @param config         the node's configuration
     * @param connectTimeout how long joining waits for the peers
     * @param verbsOptions   the verbs fabric's options, used on verbs only (may be {@code null} on the shared-memory fabric)
     * @return a builder that joins on this fabric, for more settings
     */
    public RemusCluster.Builder builder(ClusterConfig config, Duration connectTimeout, VerbsFabricOptions verbsOptions) {
        RemusCluster.Builder b = RemusCluster.builder().config(config).joinTimeout(connectTimeout);
        return isShm() ? b.sharedMemory(shmDirectory) : b.verbsOptions(Objects.requireNonNull(verbsOptions, "verbsOptions"));
    }

    @Override
    public String toString() {
        return argument();
    }
}
