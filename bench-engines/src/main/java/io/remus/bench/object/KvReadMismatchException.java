package io.remus.bench.object;

import io.remus.core.error.RemusException;

/**
 * A {@link KvExperiment} read returned a value that the run's updates rule out: a value of another key, a
 * value no update wrote (yet), or, for a key the reading worker updated, the loaded value or an older
 * value of its own. It names the way, the workload, the worker, the key and the value.
 */
public final class KvReadMismatchException extends RemusException {
    /** @param message what was read and why it cannot be, naming the way, worker, key and value */
    public KvReadMismatchException(String message) {
        super(message);
    }
}
