package io.remus.verbs;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class GidChoiceTest {
    private static final Gid LINK_LOCAL = Gid.of(new byte[] {(byte) 0xfe, (byte) 0x80, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8});
    private static final Gid IPV4 = Gid.of(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 0, 0, 1});
    private static final Gid IPV4_OTHER = Gid.of(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 0, 0, 2});

    private static int choose(List<Gid> gids, List<String> types) {
        return GidChoice.choose(gids.size(), gids::get, types::get);
    }

    @Test
    void shouldTakeTheIpv4RoceV2EntryOfAConnectXStylePort() {
        assertEquals(3, choose(List.of(LINK_LOCAL, LINK_LOCAL, IPV4, IPV4),
                List.of("IB/RoCE v1", "RoCE v2", "IB/RoCE v1", "RoCE v2")), "not the v1 twin at 2, as before");
    }

    @Test
    void shouldTakeTheIpv4EntryOfASoftRoceStylePort() {
        assertEquals(1, choose(List.of(LINK_LOCAL, IPV4), List.of("RoCE v2", "RoCE v2")));
    }

    @Test
    void shouldTakeTheFirstIpv4EntryWhenNoTypeIsKnownOrNoneIsV2() {
        assertEquals(2, choose(List.of(LINK_LOCAL, LINK_LOCAL, IPV4, IPV4_OTHER), List.of("", "", "", "")));
        assertEquals(1, choose(List.of(LINK_LOCAL, IPV4, IPV4_OTHER), List.of("RoCE v2", "IB/RoCE v1", "IB/RoCE v1")));
    }

    @Test
    void shouldTakeIndexZeroWithoutAnIpv4Entry() {
        assertEquals(0, choose(List.of(LINK_LOCAL, LINK_LOCAL), List.of("IB/RoCE v1", "RoCE v2")));
        assertEquals(0, choose(List.of(), List.of()));
    }
}
