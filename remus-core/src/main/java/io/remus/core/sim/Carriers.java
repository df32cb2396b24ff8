package io.remus.core.sim;

import io.remus.core.error.BadArgumentException;

/**
 * What the threads of a {@link VirtualTimeScheduler} run are: platform (OS) threads or Java virtual threads. The
 * choice changes host time only: the same seed gives the same interleaving, history and virtual times with either.
 *
 * <p>Exactly one thread of a run has the turn at a time, and a switch hands it to the next thread. With
 * {@link #PLATFORM} carriers a switch is an OS context switch (an unpark and a park, two futex calls); with
 * {@link #VIRTUAL} carriers it is a continuation yield and resume on a carrier thread of the JDK's virtual-thread
 * scheduler, several times cheaper in host time.
 *
 * <p>{@link #VIRTUAL} needs JDK 24 or later (JEP 491): before it, a virtual thread that waits inside a
 * {@code synchronized} block pins its carrier, and a run whose threads wait while holding monitors could pin every
 * carrier and stall. A run asking for {@link #VIRTUAL} on an earlier JDK is refused (see
 * {@link VirtualTimeOptions#withCarriers}).
 */
public enum Carriers {
    /** Each scheduled thread is a platform thread (a {@code ScheduledThread}); a switch is an OS context switch. */
    PLATFORM,
    /**
     * Each scheduled thread is a Java virtual thread, on the JDK's default virtual-thread scheduler; a switch is a
     * continuation yield and resume. JDK 24 or later.
     */
    VIRTUAL;

    /** The system property that overrides {@link #defaults()}: {@code PLATFORM} or {@code VIRTUAL}. */
    public static final String PROPERTY = "remus.sim.carriers";

    /** The first JDK feature release on which {@link #VIRTUAL} is allowed: 24, where JEP 491 landed. */
    public static final int VIRTUAL_SINCE_JDK = 24;

    /**
     * {@return the carriers a run gets unless it asks: the system property {@value #PROPERTY} when set, else
     *          {@link #VIRTUAL} on JDK 24 or later and {@link #PLATFORM} before}
     *
     * @throws BadArgumentException naming the value when the property is neither {@code PLATFORM} nor
     *                              {@code VIRTUAL} (in any case)
     */
    public static Carriers defaults() {
        String p = System.getProperty(PROPERTY);
        if (p != null && !p.isBlank()) {
            return parse(p);
        }
        return virtualAllowed() ? VIRTUAL : PLATFORM;
    }

    /**
     * {@return the carriers named {@code name}, in any case}
     *
     * @param name {@code PLATFORM} or {@code VIRTUAL}
     * @throws BadArgumentException naming the value when it is neither
     */
    public static Carriers parse(String name) {
        for (Carriers c : values()) {
            if (c.name().equalsIgnoreCase(name.strip())) {
                return c;
            }
        }
        throw new BadArgumentException("carriers must be PLATFORM or VIRTUAL, got '" + name + "'");
    }

    /** {@return whether this JDK allows {@link #VIRTUAL}: feature release 24 or later} */
    public static boolean virtualAllowed() {
        return Runtime.version().feature() >= VIRTUAL_SINCE_JDK;
    }
}
