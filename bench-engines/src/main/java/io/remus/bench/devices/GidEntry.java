package io.remus.bench.devices;

import io.remus.verbs.Gid;

/**
 * One populated entry of a port's GID table.
 *
 * @param index the table index (perftest's {@code -x})
 * @param gid   the GID
 * @param type  the kernel's name for its type (e.g. {@code RoCE v2}), or empty when it does not say
 */
public record GidEntry(int index, Gid gid, String type) {
}
