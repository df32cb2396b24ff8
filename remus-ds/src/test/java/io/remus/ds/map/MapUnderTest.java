package io.remus.ds.map;

/** The operations the history tests drive, on {@link RemoteHashMap} or on its broken twin {@link InPlaceHashMap}. */
interface MapUnderTest {
    /** @return true when the key was absent */
    boolean put(long key, byte[] value);

    /** @return the value, or null when absent */
    byte[] get(long key);

    /** @return whether the key was present */
    boolean remove(long key);

    /** {@link RemoteHashMap} itself. */
    static MapUnderTest of(RemoteHashMap map) {
        return new MapUnderTest() {
            @Override
            public boolean put(long key, byte[] value) {
                return map.put(key, value);
            }

            @Override
            public byte[] get(long key) {
                return map.get(key);
            }

            @Override
            public boolean remove(long key) {
                return map.remove(key);
            }
        };
    }
}
