package io.remus.verbs.ffi.conformance;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CPrototypeTest {

    @Test
    void shouldDropParameterNamesWhenParsingAPrototype() {
        CPrototype p = CPrototype.parse("struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)");

        assertEquals("ibv_reg_mr", p.name());
        assertEquals("struct ibv_mr *", p.returnType());
        assertEquals(List.of("struct ibv_pd *", "void *", "size_t", "int"), p.parameterTypes());
        assertFalse(p.variadic());
        assertEquals("struct ibv_mr * (*)(struct ibv_pd *, void *, size_t, int)", p.pointerType());
    }

    @Test
    void shouldKeepUnnamedParametersWhenTheyHaveNoName() {
        CPrototype p = CPrototype.parse("int f(uint32_t, struct ibv_qp, unsigned long, const char *, enum ibv_wc_status)");

        assertEquals(List.of("uint32_t", "struct ibv_qp", "unsigned long", "const char *", "enum ibv_wc_status"),
                p.parameterTypes());
    }

    @Test
    void shouldSeeVariadicVoidArrayAndFunctionPointerParametersWhenParsing() {
        CPrototype variadic = CPrototype.parse("int fcntl(int fd, int cmd, ...)");
        CPrototype none = CPrototype.parse("struct rdma_event_channel *rdma_create_event_channel(void)");
        CPrototype array = CPrototype.parse("void g(uint8_t raw[16], void (*cb)(void *arg))");
        CPrototype pointers = CPrototype.parse("struct ibv_device **ibv_get_device_list(int *num_devices);");

        assertTrue(variadic.variadic());
        assertEquals(List.of("int", "int"), variadic.parameterTypes());
        assertEquals("int (*)(int, int, ...)", variadic.pointerType());
        assertEquals(List.of(), none.parameterTypes());
        assertEquals("struct rdma_event_channel * (*)(void)", none.pointerType());
        assertEquals(List.of("uint8_t *", "void (*)(void *arg)"), array.parameterTypes().stream()
                .map(t -> t.replace("( *)", "(*)")).toList());
        assertEquals("struct ibv_device **", pointers.returnType());
        assertEquals(List.of("int *"), pointers.parameterTypes());
    }

    @Test
    void shouldRejectTextWhenItIsNoPrototype() {
        assertThrows(IllegalArgumentException.class, () -> CPrototype.parse("ibv_close_device"));
        assertThrows(IllegalArgumentException.class, () -> CPrototype.parse("ibv_close_device(int x)"));
    }
}
