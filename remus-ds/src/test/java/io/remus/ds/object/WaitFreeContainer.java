package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.ds.reclaim.Reclaimer;

/** {@link WaitFreeQueue} and {@link WaitFreeStack} behind one interface, for the shared tests. */
interface WaitFreeContainer {
    boolean put(long v);

    boolean take();

    long taken();

    long[] contents();

    WaitFreeObject<?> object();

    long ptr();

    /** How to create or attach one kind of container, with a given helping policy. */
    interface Kind {
        boolean fifo();

        WaitFreeContainer create(ComputeThread t, Reclaimer r, int node, int threads, int elements, WaitFreeObject.Helping helping);

        WaitFreeContainer attach(ComputeThread t, Reclaimer r, long ptr, WaitFreeObject.Helping helping);
    }

    Kind QUEUE = new Kind() {
        @Override
        public boolean fifo() {
            return true;
        }

        @Override
        public WaitFreeContainer create(ComputeThread t, Reclaimer r, int node, int threads, int elements,
                                        WaitFreeObject.Helping helping) {
            return of(WaitFreeQueue.create(t, r, node, threads, elements, helping));
        }

        @Override
        public WaitFreeContainer attach(ComputeThread t, Reclaimer r, long ptr, WaitFreeObject.Helping helping) {
            return of(WaitFreeQueue.attach(t, r, ptr, helping));
        }

        @Override
        public String toString() {
            return "queue";
        }
    };

    Kind STACK = new Kind() {
        @Override
        public boolean fifo() {
            return false;
        }

        @Override
        public WaitFreeContainer create(ComputeThread t, Reclaimer r, int node, int threads, int elements,
                                        WaitFreeObject.Helping helping) {
            return of(WaitFreeStack.create(t, r, node, threads, elements, helping));
        }

        @Override
        public WaitFreeContainer attach(ComputeThread t, Reclaimer r, long ptr, WaitFreeObject.Helping helping) {
            return of(WaitFreeStack.attach(t, r, ptr, helping));
        }

        @Override
        public String toString() {
            return "stack";
        }
    };

    static WaitFreeContainer of(WaitFreeQueue q) {
        return new WaitFreeContainer() {
            @Override
            public boolean put(long v) {
                return q.enqueue(v);
            }

            @Override
            public boolean take() {
                return q.dequeue();
            }

            @Override
            public long taken() {
                return q.value();
            }

            @Override
            public long[] contents() {
                return q.contents();
            }

            @Override
            public WaitFreeObject<?> object() {
                return q.object();
            }

            @Override
            public long ptr() {
                return q.ptr();
            }
        };
    }

    static WaitFreeContainer of(WaitFreeStack s) {
        return new WaitFreeContainer() {
            @Override
            public boolean put(long v) {
                return s.push(v);
            }

            @Override
            public boolean take() {
                return s.pop();
            }

            @Override
            public long taken() {
                return s.value();
            }

            @Override
            public long[] contents() {
                return s.contents();
            }

            @Override
            public WaitFreeObject<?> object() {
                return s.object();
            }

            @Override
            public long ptr() {
                return s.ptr();
            }
        };
    }
}
