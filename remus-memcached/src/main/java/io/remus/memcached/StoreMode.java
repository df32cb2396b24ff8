package io.remus.memcached;

/** The memcached storage commands. */
public enum StoreMode {
    /** Store unconditionally. */
    SET,
    /** Store only when the key holds no item. */
    ADD,
    /** Store only when the key holds an item. */
    REPLACE,
    /** Add the data after an existing item's; flags and expiration stay. */
    APPEND,
    /** Add the data before an existing item's; flags and expiration stay. */
    PREPEND,
    /** Store only when the item's CAS unique value is still the one given. */
    CAS
}
