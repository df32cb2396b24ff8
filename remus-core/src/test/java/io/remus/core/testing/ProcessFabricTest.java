package io.remus.core.testing;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessFabricTest {
    @Test
    void shouldNameTheSameFabricWhenAChildParsesItsArgument() {
        ProcessFabric shm = new ProcessFabric(null, Path.of("/dev/shm/job-1"));
        assertEquals("shm:/dev/shm/job-1", shm.argument());
        assertEquals(shm, ProcessFabric.parse(shm.argument()));
        assertTrue(shm.isShm());
        assertEquals(ProcessFabric.SHM_HOST, shm.host());
        ProcessFabric verbs = ProcessFabric.parse("rxe0");
        assertEquals(ProcessFabric.verbs("rxe0"), verbs);
        assertEquals("rxe0", verbs.argument());
        assertFalse(verbs.isShm());
        assertNull(verbs.shmDirectory());
    }

    @Test
    void shouldRefuseBothOrNeitherFabric() {
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
                () -> new ProcessFabric("rxe0", Path.of("/dev/shm/job-1")));
        assertTrue(both.getMessage().contains("rxe0") && both.getMessage().contains("/dev/shm/job-1"), both.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ProcessFabric(null, null));
    }

    @Test
    void shouldMakeAFreshDirectoryForEachSharedMemoryCluster() {
        ProcessFabric a = ProcessFabric.freshShm();
        ProcessFabric b = ProcessFabric.freshShm();
        assertTrue(a.isShm() && b.isShm());
        assertFalse(a.shmDirectory().equals(b.shmDirectory()), a + " " + b);
    }
}
