package io.remus.verbs.ffi;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Declarations and guards of {@link IbVerbs}; the calls run against the installed libibverbs. */
class IbvFunctionsTest {

    @Test
    void shouldLinkEveryDeclarationWhenLibibverbsIsInstalled() throws IllegalAccessException {
        assumeTrue(NativeLibraries.ibverbsAvailable(), "libibverbs.so.1 is not installed");
        int linked = 0;
        for (Field f : IbVerbs.class.getDeclaredFields()) {
            if (f.getType() == NativeFunction.class && Modifier.isPublic(f.getModifiers())) {
                NativeFunction fn = (NativeFunction) f.get(null);
                assertNotNull(fn.isPointer() ? fn.downcallUnbound() : fn.downcall(), fn.name());
                linked++;
            }
        }
        assertTrue(linked >= 38, "linked " + linked);
    }

    @Test
    void shouldNamePointersByTheirOwnerWhenDeclaredAsProviderFunctions() {
        assertEquals("ibv_context_ops.post_send", IbVerbs.POST_SEND.name());
        assertEquals("ibv_context_ops.poll_cq", IbVerbs.POLL_CQ.name());
        assertTrue(IbVerbs.POST_SEND.critical());
        assertEquals("verbs_context.query_port", IbVerbs.QUERY_PORT.name());
        assertEquals("ibv_reg_mr_iova2", IbVerbs.IBV_REG_MR_IOVA2.name());
        assertTrue(IbVerbs.IBV_REG_MR_IOVA2.capturesErrno());
    }

    @Test
    void shouldReportNoDevicesWhenHostHasNoRdmaStack() {
        assumeTrue(NativeLibraries.ibverbsAvailable(), "libibverbs.so.1 is not installed");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errno.allocate(arena);
            MemorySegment count = arena.allocate(JAVA_INT);
            count.set(JAVA_INT, 0, -1);
            MemorySegment list = IbVerbs.ibv_get_device_list(state, count);
            if (list.equals(MemorySegment.NULL)) {
                assertNotEquals(0, Errno.get(state));
            } else {
                assumeTrue(count.get(JAVA_INT, 0) == 0, "this host has RDMA devices");
                IbVerbs.ibv_free_device_list(list);
            }
        }
    }

    @Test
    void shouldRejectNullContextWhenReadingFunctionPointers() {
        assertThrows(IllegalArgumentException.class, () -> IbVerbs.ops_post_send(MemorySegment.NULL));
        assertThrows(IllegalArgumentException.class, () -> IbVerbs.ops_poll_cq(MemorySegment.NULL));
        assertThrows(IllegalArgumentException.class, () -> IbVerbs.verbs_get_ctx(MemorySegment.NULL));
    }

    @Test
    void shouldRejectSmallAttributeStructWhenQueryingPortOrDevice() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment small = arena.allocate(8);
            assertThrows(IllegalArgumentException.class,
                    () -> IbVerbs.ibv_query_port(MemorySegment.NULL, (byte) 1, small));
            assertThrows(IllegalArgumentException.class,
                    () -> IbVerbs.ibv_query_device_ex(MemorySegment.NULL, MemorySegment.NULL, small));
            MemorySegment attr = arena.allocate(ibv_port_attr.layout());
            assertThrows(IllegalArgumentException.class,
                    () -> IbVerbs.ibv_query_port(MemorySegment.NULL, (byte) 1, attr));
        }
    }

    @Test
    void shouldReadOpsFromTheTableWhenGivenAContextStruct() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ctx = arena.allocate(ibv_context.layout());
            MemorySegment ops = ibv_context.ops(ctx);
            ibv_context_ops.post_send(ops, MemorySegment.ofAddress(0x1234));
            ibv_context_ops.poll_cq(ops, MemorySegment.ofAddress(0x5678));
            assertEquals(0x1234, IbVerbs.ops_post_send(ctx).address());
            assertEquals(0x5678, IbVerbs.ops_poll_cq(ctx).address());
            assertThrows(IllegalStateException.class, () -> IbVerbs.ops_post_recv(ctx));
            assertEquals(MemorySegment.NULL, IbVerbs.verbs_get_ctx(ctx));
        }
    }
}
