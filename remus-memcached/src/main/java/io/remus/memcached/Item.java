package io.remus.memcached;

/**
 * One item as a get returns it.
 *
 * @param value the data, owned by the caller
 * @param flags the client's 32 flag bits, as stored
 * @param cas   the item's CAS unique value: it changes with every change of the item
 */
public record Item(byte[] value, int flags, long cas) {
}
