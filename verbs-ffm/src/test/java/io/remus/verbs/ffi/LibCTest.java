package io.remus.verbs.ffi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class LibCTest {
    private static final int EBADF = 9;

    @Test
    void shouldReturnZeroWhenPollingAnEmptyPipeTimesOut() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            int[] fds = pipe(arena, callState);
            MemorySegment pfd = pollFor(arena, fds[0], LibC.POLLIN);
            assertEquals(0, LibC.poll(callState, pfd, 1, 10));
            assertEquals(0, pollfd.revents(pfd));
            closeAll(callState, fds);
        }
    }

    @Test
    void shouldReportHangUpWhenWriteEndIsClosed() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            int[] fds = pipe(arena, callState);
            assertEquals(0, LibC.close(callState, fds[1]));
            MemorySegment pfd = pollFor(arena, fds[0], LibC.POLLIN);
            assertEquals(1, LibC.poll(callState, pfd, 1, 1000));
            assertTrue((pollfd.revents(pfd) & LibC.POLLHUP) != 0, "revents " + pollfd.revents(pfd));
            assertEquals(0, LibC.close(callState, fds[0]));
        }
    }

    @Test
    void shouldSetNonBlockingWhenFcntlSetsStatusFlags() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            int[] fds = pipe(arena, callState);
            int flags = LibC.fcntl(callState, fds[0], LibC.F_GETFL, 0);
            assertTrue(flags >= 0, "F_GETFL errno " + Errno.get(callState));
            assertEquals(0, flags & LibC.O_NONBLOCK);
            assertEquals(0, LibC.fcntl(callState, fds[0], LibC.F_SETFL, flags | LibC.O_NONBLOCK));
            assertEquals(LibC.O_NONBLOCK, LibC.fcntl(callState, fds[0], LibC.F_GETFL, 0) & LibC.O_NONBLOCK);
            closeAll(callState, fds);
        }
    }

    @Test
    void shouldReportErrnoWhenClosingAnInvalidDescriptor() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            assertEquals(-1, LibC.close(callState, -1));
            assertEquals(EBADF, Errno.get(callState));
        }
    }

    @Test
    void shouldRejectBeforeNativeCodeWhenPollArrayIsTooSmall() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment one = arena.allocate(pollfd.layout());
            assertThrows(IllegalArgumentException.class, () -> LibC.poll(callState, one, 2, 0));
            assertThrows(IllegalArgumentException.class, () -> LibC.poll(callState, one, -1, 0));
            assertThrows(IllegalArgumentException.class, () -> LibC.poll(callState, MemorySegment.NULL, 1, 0));
            assertThrows(IllegalArgumentException.class, () -> LibC.pipe(callState, arena.allocate(JAVA_INT)));
        }
    }

    private static int[] pipe(Arena arena, MemorySegment callState) {
        MemorySegment pair = arena.allocate(JAVA_INT, 2);
        assertEquals(0, LibC.pipe(callState, pair), () -> "pipe: " + Errno.describe(Errno.get(callState)));
        int[] fds = {pair.getAtIndex(JAVA_INT, 0), pair.getAtIndex(JAVA_INT, 1)};
        assertNotEquals(fds[0], fds[1]);
        return fds;
    }

    private static MemorySegment pollFor(Arena arena, int fd, int events) {
        MemorySegment pfd = arena.allocate(pollfd.layout());
        pollfd.fd(pfd, fd);
        pollfd.events(pfd, (short) events);
        return pfd;
    }

    private static void closeAll(MemorySegment callState, int[] fds) {
        for (int fd : fds) {
            assertEquals(0, LibC.close(callState, fd));
        }
    }
}
