package io.remus.core.fabric;

import java.util.Arrays;

/**
 * A node's registrations as its work requests look them up (for fabric implementations): a
 * copy-on-write array, so a lookup by key and range reads one volatile array and allocates nothing,
 * while adding and removing (under the node's lock) copy it.
 *
 * @param <M> the fabric's registration type
 */
public final class Registrations<M extends RegisteredMemory> {
    private volatile M[] regions;

    /**
     * Creates an empty table.
     *
     * @param empty an empty array of the fabric's registration type
     */
    public Registrations(M[] empty) {
        regions = Arrays.copyOf(empty, 0);
    }

    /**
     * Adds a registration.
     *
     * @param region a new registration
     * @return {@code region}
     */
    public synchronized M add(M region) {
        M[] now = Arrays.copyOf(regions, regions.length + 1);
        now[now.length - 1] = region;
        regions = now;
        return region;
    }

    /**
     * Removes a registration; nothing when it is not in the table.
     *
     * @param region the registration to remove
     */
    public synchronized void remove(M region) {
        M[] old = regions;
        for (int i = 0; i < old.length; i++) {
            if (old[i] == region) {
                M[] now = Arrays.copyOf(old, old.length - 1);
                System.arraycopy(old, i + 1, now, i, old.length - i - 1);
                regions = now;
                return;
            }
        }
    }

    /**
     * {@return the registrations now in the table; the caller does not modify the array}
     */
    public M[] snapshot() {
        return regions;
    }

    /**
     * Finds the registration a local buffer lies in, as the NIC checks a work request's local buffer.
     *
     * @param lkey    a local key
     * @param address first byte
     * @param length  bytes
     * @return the registration with local key {@code lkey} covering the range, or {@code null}
     */
    public M coveringLocal(int lkey, long address, long length) {
        return RegistrationChecks.coveringLocal(regions, lkey, address, length);
    }

    /**
     * Finds the registration a remote target lies in, as the NIC checks a work request's remote target.
     *
     * @param rkey    a remote key
     * @param address first byte
     * @param length  bytes
     * @return the registration with remote key {@code rkey} covering the range, or {@code null}
     */
    public M coveringRemote(int rkey, long address, long length) {
        return RegistrationChecks.coveringRemote(regions, rkey, address, length);
    }
}
