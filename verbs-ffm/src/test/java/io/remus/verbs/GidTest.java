package io.remus.verbs;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class GidTest {

    @Test
    void shouldGiveTheDottedAddressWhenIpv4Mapped() {
        assertEquals("198.18.0.1", new Gid(0, 0xffff_c612_0001L).ipv4Literal());
        assertEquals("255.255.255.255", new Gid(0, 0xffff_ffff_ffffL).ipv4Literal());
    }

    @Test
    void shouldRefuseWhenNotIpv4Mapped() {
        assertThrows(IllegalStateException.class, () -> new Gid(0xfe80_0000_0000_0000L, 1).ipv4Literal());
        assertThrows(IllegalStateException.class, () -> Gid.ZERO.ipv4Literal());
    }
}
