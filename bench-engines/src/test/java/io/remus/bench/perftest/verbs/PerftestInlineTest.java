package io.remus.bench.perftest.verbs;

import io.remus.bench.perftest.BenchTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PerftestInlineTest {
    @ParameterizedTest
    @CsvSource({
            "0x02c9, 4123, 220, 236",   // ConnectX-6
            "0x02c9, 4129, 220, 236",   // ConnectX-7
            "0x02c9, 41686, 220, 236",  // BlueField-2
            "0x02c9, 26428, 220, 236",  // ConnectX-2
            "0x14e4, 5855, 96, 96",     // Broadcom NetXtreme
            "0x1077, 5700, 128, 128",   // QLogic FastLinQ
            "0x1d0f, 61344, 32, 32",    // Amazon EFA
            "0x19e5, 41506, 32, 32",    // Huawei HNS
            "0x1ded, 4223, 96, 96",     // Alibaba eRDMA
            "0x8086, 14289, 48, 48",    // Intel E810
            "0x8086, 5522, 101, 101",   // later Intel
            "0x1425, 0x6401, 220, 236", // Chelsio T6
            "0x1425, 0xa401, 220, 236", // Chelsio T4 (second range)
            "0x1425, 0x3001, 0, 0",     // Chelsio, a generation perftest does not know
            "0xffffff, 0, 0, 0",        // Soft-RoCE (rxe)
            "0x02c9, 9999, 0, 0",       // a Mellanox part perftest does not list
    })
    void shouldChooseWhatPerftestChoosesForTheLatencyTestsThatSend(String vendor, String part, int write, int send) {
        int vendorId = Integer.decode(vendor);
        int partId = Integer.decode(part);
        assertEquals(write, PerftestInline.choose(BenchTest.WRITE_LAT, vendorId, partId).bytes());
        assertEquals(send, PerftestInline.choose(BenchTest.SEND_LAT, vendorId, partId).bytes());
    }

    @ParameterizedTest
    @EnumSource(value = BenchTest.class, names = {"WRITE_LAT", "SEND_LAT"}, mode = EnumSource.Mode.EXCLUDE)
    void shouldSendNothingInlineInTheOtherTestsWhateverTheDevice(BenchTest test) {
        assertEquals(false, PerftestInline.dependsOnDevice(test));
        assertEquals(0, PerftestInline.choose(test, null).bytes(), "no device needed");
        assertEquals(0, PerftestInline.choose(test, 0x02c9, 4123).bytes(), "not even on a ConnectX-6");
    }

    @Test
    void shouldSayWhyInTheReason() {
        assertTrue(PerftestInline.choose(BenchTest.WRITE_LAT, 0xffffff, 0).reason()
                .contains("a device it does not recognise (vendor 0xffffff, part 0)"));
        assertTrue(PerftestInline.choose(BenchTest.SEND_LAT, 0x02c9, 4123).reason()
                .contains("perftest's default for send-lat on this device"));
        assertTrue(PerftestInline.choose(BenchTest.READ_BW, null).reason().contains("read-bw"));
    }
}
