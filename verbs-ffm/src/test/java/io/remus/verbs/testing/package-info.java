/**
 * Support for tests that need a real RDMA device or a cluster of hosts, reused by every module.
 *
 * <ul>
 *   <li>{@link io.remus.verbs.testing.DeviceTest} marks a test that needs the device named by
 *       {@code REMUS_TEST_DEVICE} (tag {@code device}): skipped with the reason where the variable
 *       is unset, failed where it names a device that does not exist.</li>
 *   <li>{@link io.remus.verbs.testing.ClusterTest} marks a test that plays one node's role in a
 *       multi-host run (tag {@code cluster}); {@link io.remus.verbs.testing.ClusterTests} gives the
 *       node's index, the cluster's size and the nodes' addresses from the environment.</li>
 *   <li>{@link io.remus.verbs.testing.ChildJvm} starts a child JVM on the same class path, for
 *       multi-process tests on one device.</li>
 * </ul>
 * The {@code softroce/} harness at the repository root sets the environment inside Soft-RoCE
 * guests; see {@code softroce/README.md}.
 */
package io.remus.verbs.testing;
