package io.remus.alock.queue;

import io.remus.core.time.ThreadTime;

import java.lang.ref.WeakReference;
import java.util.Arrays;

/**
 * The JVM's table of Java threads that may park in a queue lock while they wait for a hand-over by CPU
 * store, each under a small non-zero token: a waiter writes its token into its queue node's
 * {@link QueueNode#PARKED} word before it parks, and the releaser that stores the hand-over reads the word
 * and {@linkplain #unpark(long) unparks} the token's thread ({@link ThreadTime#unpark}: the JDK's unpark, or a wake
 * through the virtual-time scheduler for one of its threads, which park through it). Tokens are words in node memory, not
 * references, because a queue node is memory that the CPU and the NIC address, not a Java object.
 *
 * <p>A thread {@linkplain #register(Thread) registers} once (its lock context keeps the token); the table
 * holds it weakly, and a slot whose thread was collected is reused. Registering takes a lock and allocates;
 * {@link #unpark(long)} neither. The lock is held for no wait, so a thread of the virtual-time scheduler never
 * holds it while another of its threads runs.
 */
public final class ParkedWaiters {
    private static final Object LOCK = new Object();
    private static volatile WeakReference<?>[] table = new WeakReference<?>[16];

    private ParkedWaiters() {
    }

    /**
     * Registers a thread that will park, for {@link #unpark(long)}.
     *
     * @param thread the thread that will park under the token
     * @return its token, at least 1
     */
    public static long register(Thread thread) {
        synchronized (LOCK) {
            WeakReference<?>[] t = table;
            for (int i = 0; i < t.length; i++) {
                if (t[i] == null || t[i].get() == null) {
                    t[i] = new WeakReference<>(thread);
                    table = t; // publishes the slot to unparkers
                    return i + 1;
                }
            }
            WeakReference<?>[] grown = Arrays.copyOf(t, t.length * 2);
            grown[t.length] = new WeakReference<>(thread);
            table = grown;
            return t.length + 1;
        }
    }

    /**
     * Unparks the thread registered under {@code token}, if it is still alive; a thread that is not parked
     * returns at once from its next park, which every waiter tolerates (it parks in a loop that re-checks
     * what it awaits).
     *
     * @param token a token from {@link #register(Thread)}; 0 and unknown tokens are ignored
     */
    public static void unpark(long token) {
        WeakReference<?>[] t = table;
        if (token < 1 || token > t.length) {
            return;
        }
        WeakReference<?> ref = t[(int) token - 1];
        if (ref != null && ref.get() instanceof Thread thread) {
            ThreadTime.unpark(thread);
        }
    }
}
