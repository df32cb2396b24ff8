/**
 * A memcached text-protocol server that a program embeds ({@link io.remus.memcached.MemcachedServer}), over
 * an engine that holds the items ({@link io.remus.memcached.MemcachedEngine}): one trustee per shard
 * ({@link io.remus.memcached.DelegatedCache}).
 */
module io.remus.memcached {
    requires transitive io.remus.ds;

    exports io.remus.memcached;
}
