/**
 * The cluster configuration: {@link io.remus.core.config.ClusterConfig} and its builder, read by
 * {@link io.remus.core.config.ConfigSources} from a properties file, {@code --key=value}
 * arguments or a launcher's environment (Slurm, Open MPI, PMI; {@link io.remus.core.config.Hostfile},
 * {@link io.remus.core.config.SlurmHostList}), and the address exchange of launchers that name
 * no peer hosts ({@link io.remus.core.config.Rendezvous}).
 *
 * {@snippet :
 * ClusterConfig config = ClusterConfig.builder()
 *         .nodes(List.of("10.0.0.1", "10.0.0.2", "10.0.0.3"))
 *         .segmentSize(64L << 20)
 *         .build()
 *         .withNodeId(0);
 * ClusterConfig same = ConfigSources.fromArgs("--nodes=10.0.0.1,10.0.0.2,10.0.0.3", "--seg-size=64M", "--node-id=0");
 * }
 *
 * <h2>Limits</h2>
 * Values no component can use are refused where they enter, by a
 * {@link io.remus.core.error.BadArgumentException} naming the builder method, the configuration key and
 * the value: sizes beyond what an {@code int} or a segment can hold, more nodes than 16-bit node
 * ids allow (checked before any node is named), timeouts beyond
 * {@link io.remus.core.config.Timeouts#MAX_FINITE}. Waiting without end is the explicit
 * {@link io.remus.core.config.Timeouts#FOREVER} ({@code timeout.ms=forever}), never a huge number.
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name (for a builder's setter, the setter's name), thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong.
 */
package io.remus.core.config;
