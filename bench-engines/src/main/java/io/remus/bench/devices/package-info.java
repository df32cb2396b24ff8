/**
 * What {@code remus devices} shows about this host's RDMA devices, collected through the verbs API
 * ({@link io.remus.bench.devices.DeviceProbe}): each device's attributes, its ports with their populated
 * GIDs, and the largest inline size a reliable-connected queue pair accepts.
 */
package io.remus.bench.devices;
