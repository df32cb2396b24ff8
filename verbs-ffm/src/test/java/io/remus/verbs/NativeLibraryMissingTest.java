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
        List<String> calls = run("ibverbs", "/nonexistent/libibverbs.so.1");
        for (String call : calls) {
            assertTrue(call.contains(TYPED), call);
            assertTrue(call.contains("/nonexistent/libibverbs.so.1"), call);
            assertTrue(call.contains("libibverbs1"), call);
            assertTrue(call.contains(NativeLibraries.IBVERBS_PROPERTY), call);
        }
    }

    @Test
    void shouldThrowTheTypedErrorOnEveryCallWhenTheLibraryLacksTheVerbs() throws InterruptedException {
        List<String> calls = run("ibverbs", "libc.so.6");
        for (String call : calls) {
            assertTrue(call.contains(TYPED), call);
            assertTrue(call.contains("libc.so.6"), call);
            assertTrue(call.contains("ibv_get_device_list"), call);
            assertTrue(call.contains("libibverbs1"), call);
        }
    }

    @Test
    void shouldThrowTheTypedErrorOnEveryCallWhenLibrdmacmDoesNotExist() throws InterruptedException {
        List<String> calls = run("rdmacm", "/nonexistent/librdmacm.so.1");
        for (String call : calls) {
            assertTrue(call.contains(TYPED), call);
            assertTrue(call.contains("/nonexistent/librdmacm.so.1"), call);
            assertTrue(call.contains("librdmacm1"), call);
        }
    }

    @Test
    void shouldThrowTheTypedErrorOnEveryCallWhenTheLibraryLacksTheConnectionManager() throws InterruptedException {
        List<String> calls = run("rdmacm", "libc.so.6");
        for (String call : calls) {
            assertTrue(call.contains(TYPED), call);
            assertTrue(call.contains("rdma_create_event_channel"), call);
            assertTrue(call.contains("librdmacm1"), call);
        }
    }

    @Test
    void shouldReportTheStackUnavailableWhenLibibverbsDoesNotExist() throws InterruptedException {
        ChildJvm.Result result = ChildJvm.run(Duration.ofMinutes(2), NativeLibraryMissingMain.class,
                "ibverbs", "/nonexistent/libibverbs.so.1");
        assertTrue(result.output().contains("CALL 1 available false"), result.output());
        assertTrue(result.output().contains("CALL 2 available false"), result.output());
    }

    private static List<String> run(String library, String name) throws InterruptedException {
        ChildJvm.Result result = ChildJvm.run(Duration.ofMinutes(2), NativeLibraryMissingMain.class, library, name);
        assertTrue(result.succeeded(), result.output());
        List<String> calls = result.output().lines()
                .filter(line -> line.startsWith("CALL ") && !line.contains(" available "))
                .toList();
        assertEquals(2, calls.size(), result.output());
        return calls;
    }
}
