package io.remus.verbs;

import io.remus.verbs.ffi.NativeLibraries;
import io.remus.verbs.testing.ChildJvm;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A missing or wrong native library is a {@link NativeLibraryMissingException} on every call,
 * naming the library and the Debian package: each case runs in a child JVM, since the library is
 * loaded once per JVM.
 */
class NativeLibraryMissingTest {
    private static final String TYPED = NativeLibraryMissingException.class.getName();

    @Test
    void shouldThrowTheTypedErrorOnEveryCallWhenLibibverbsDoesNotExist() throws InterruptedException {
        assertEveryCallNames("ibverbs", "/nonexistent/libibverbs.so.1",
                "/nonexistent/libibverbs.so.1", "libibverbs1", NativeLibraries.IBVERBS_PROPERTY);
    }

    @Test
    void shouldThrowTheTypedErrorOnEveryCallWhenTheLibraryLacksTheVerbs() throws InterruptedException {
        assertEveryCallNames("ibverbs", "libc.so.6", "libc.so.6", "ibv_get_device_list", "libibverbs1");
    }

    @Test
    void shouldThrowTheTypedErrorOnEveryCallWhenLibrdmacmDoesNotExist() throws InterruptedException {
        assertEveryCallNames("rdmacm", "/nonexistent/librdmacm.so.1", "/nonexistent/librdmacm.so.1", "librdmacm1");
    }

    @Test
    void shouldThrowTheTypedErrorOnEveryCallWhenTheLibraryLacksTheConnectionManager() throws InterruptedException {
        assertEveryCallNames("rdmacm", "libc.so.6", "rdma_create_event_channel", "librdmacm1");
    }

    @Test
    void shouldReportTheStackUnavailableWhenLibibverbsDoesNotExist() throws InterruptedException {
        ChildJvm.Result result = ChildJvm.run(Duration.ofMinutes(2), NativeLibraryMissingMain.class,
                "ibverbs", "/nonexistent/libibverbs.so.1");
        assertTrue(result.output().contains("CALL 1 available false"), result.output());
        assertTrue(result.output().contains("CALL 2 available false"), result.output());
    }

    /** Runs the child with {@code library} overridden by {@code name}; both calls must fail typed, naming each of {@code expected}. */
    private static void assertEveryCallNames(String library, String name, String... expected) throws InterruptedException {
        ChildJvm.Result result = ChildJvm.run(Duration.ofMinutes(2), NativeLibraryMissingMain.class, library, name);
        assertTrue(result.succeeded(), result.output());
        List<String> calls = result.output().lines()
                .filter(line -> line.startsWith("CALL ") && !line.contains(" available "))
                .toList();
        assertEquals(2, calls.size(), result.output());
        for (String call : calls) {
            assertTrue(call.contains(TYPED), call);
            for (String text : expected) {
                assertTrue(call.contains(text), text + " not in: " + call);
            }
        }
    }
}
