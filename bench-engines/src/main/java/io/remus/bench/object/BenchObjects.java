package io.remus.bench.object;

import io.remus.alock.LockContext;
import io.remus.core.ComputeThread;
import io.remus.ds.object.LockedObject;
import io.remus.ds.object.RemoteCounter;
import io.remus.ds.object.RemoteMaxRegister;
import io.remus.ds.object.RemoteRegister;
import io.remus.ds.object.SequentialObject;
import io.remus.ds.object.SharedStateTable;
import io.remus.ds.object.WaitFreeObject;
import io.remus.ds.object.WaitFreeQueue;
import io.remus.ds.object.WaitFreeStack;
import io.remus.ds.reclaim.Reclaimer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Creates the benchmarked object and opens each worker's handle on it, with the operation mix of
 * {@link ObjectKind}: an update ({@code true}) or a read (a put or a take for the containers).
 */
final class BenchObjects {
    private BenchObjects() {
    }

    /** One worker's handle: one operation per call; {@link #close()} closes the object handle it opened. */
    interface Handle extends AutoCloseable {
        /**
         * @param update whether to update (put) or read (take)
         * @param value  the value to write, growing per worker (the max register's writes)
         */
        void op(boolean update, long value);

        /** {@return whether the handle stops a stalled worker inside its operations (else between two)} */
        boolean stallsInside();

        /** Closes the object handle: the object's memory is freed once every handle on it is closed or destroyed. */
        @Override
        void close();
    }

    /**
     * The creator's handle on the object.
     *
     * @param ptr     the object's pointer
     * @param destroy destroys the object through the creator's handle
     */
    record Created(long ptr, Runnable destroy) {
    }

    /**
     * Creates the object on node 0, empty or zero.
     *
     * @return its pointer, and the creator's handle's destroy
     */
    static Created create(ObjectBenchmarkConfig c, ComputeThread t, Reclaimer r, LockContext context) {
        int handles = c.workers() + 1;
        if (c.impl().lock() != null) {
            LockedObject<?> o = LockedObject.create(context, c.impl().lock(), 0, sequential(c));
            return new Created(o.ptr(), o::destroy);
        }
        return switch (c.object()) {
            case COUNTER -> {
                RemoteCounter o = RemoteCounter.create(t, 0, 0);
                yield new Created(o.ptr(), o::destroy);
            }
            case MAX -> {
                RemoteMaxRegister o = RemoteMaxRegister.create(t, 0, handles, 0);
                yield new Created(o.ptr(), o::destroy);
            }
            case REGISTER -> {
                RemoteRegister o = RemoteRegister.create(t, r, 0, new byte[c.valueBytes()]);
                yield new Created(o.ptr(), o::destroy);
            }
            case SST -> {
                SharedStateTable o = SharedStateTable.create(t, 0, handles, c.valueBytes());
                yield new Created(o.ptr(), o::destroy);
            }
            case QUEUE, STACK -> {
                WaitFreeObject<?> o = WaitFreeObject.create(t, r, 0, handles, sequential(c));
                yield new Created(o.ptr(), o::destroy);
            }
        };
    }

    /**
     * Opens worker {@code worker}'s handle on the object at {@code ptr}.
     *
     * @param stall the stalled worker's stop, or null for the others
     */
    static Handle open(ObjectBenchmarkConfig c, ComputeThread t, Reclaimer r, LockContext context, long ptr, int worker,
                       Stall stall) {
        if (c.impl().lock() != null) {
            LockedObject<?> o = LockedObject.attach(context, c.impl().lock(), ptr, stalling(sequential(c), stall));
            long updateOp = switch (c.object()) {
                case SST -> WordObjects.writeRow(worker);
                case QUEUE -> WaitFreeQueue.ENQUEUE;
                case STACK -> WaitFreeStack.PUSH;
                default -> WordObjects.UPDATE;
            };
            long readOp = switch (c.object()) {
                case QUEUE -> WaitFreeQueue.DEQUEUE;
                case STACK -> WaitFreeStack.POP;
                default -> WordObjects.READ;
            };
            return handle((update, value) -> o.apply(update ? updateOp : readOp, value), true, o::close);
        }
        MemorySegment value = MemorySegment.ofArray(new long[c.valueBytes() / 8]);
        return switch (c.object()) {
            case COUNTER -> {
                RemoteCounter counter = RemoteCounter.attach(t, ptr);
                yield handle((update, v) -> {
                    if (update) {
                        counter.fetchAndAdd(1);
                    } else {
                        counter.read();
                    }
                }, false, counter::close);
            }
            case MAX -> {
                RemoteMaxRegister max = RemoteMaxRegister.attach(t, ptr);
                yield handle((update, v) -> {
                    if (update) {
                        max.writeMax(v);
                    } else {
                        max.read();
                    }
                }, false, max::close);
            }
            case REGISTER -> {
                RemoteRegister register = RemoteRegister.attach(t, r, ptr);
                yield handle((update, v) -> {
                    if (update) {
                        value.fill((byte) v);
                        register.write(value);
                    } else {
                        register.read(value);
                    }
                }, false, register::close);
            }
            case SST -> {
                SharedStateTable table = SharedStateTable.attach(t, ptr);
                MemorySegment all = MemorySegment.ofArray(new byte[table.rows() * table.rowBytes()]);
                yield handle((update, v) -> {
                    if (update) {
                        value.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, v);
                        table.write(value);
                    } else {
                        table.snapshot(all, null);
                    }
                }, false, table::close);
            }
            case QUEUE, STACK -> {
                WaitFreeObject<?> o = WaitFreeObject.attach(t, r, ptr, stalling(sequential(c), stall));
                long put = c.object() == ObjectKind.QUEUE ? WaitFreeQueue.ENQUEUE : WaitFreeStack.PUSH;
                long take = c.object() == ObjectKind.QUEUE ? WaitFreeQueue.DEQUEUE : WaitFreeStack.POP;
                yield handle((update, v) -> o.apply(update ? put : take, v), true, o::close);
            }
        };
    }

    /** {@return the sequential object of a locked implementation, or of the wait-free containers} */
    private static SequentialObject<long[]> sequential(ObjectBenchmarkConfig c) {
        return switch (c.object()) {
            case COUNTER -> WordObjects.counter();
            case MAX -> WordObjects.max();
            case REGISTER -> WordObjects.register(c.valueBytes() / 8);
            case SST -> WordObjects.table(c.workers(), c.valueBytes() / 8);
            case QUEUE -> WaitFreeQueue.sequential(c.elements());
            case STACK -> WaitFreeStack.sequential(c.elements());
        };
    }

    private static <S> SequentialObject<S> stalling(SequentialObject<S> object, Stall stall) {
        return stall == null ? object : new StallingObject<>(object, stall);
    }

    private interface Op {
        void run(boolean update, long value);
    }

    private static Handle handle(Op op, boolean inside, Runnable close) {
        return new Handle() {
            @Override
            public void op(boolean update, long value) {
                op.run(update, value);
            }

            @Override
            public boolean stallsInside() {
                return inside;
            }

            @Override
            public void close() {
                close.run();
            }
        };
    }
}
