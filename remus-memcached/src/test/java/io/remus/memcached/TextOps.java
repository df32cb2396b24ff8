package io.remus.memcached;

import io.remus.check.History;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Test fixture: one text-protocol connection whose {@code set}, {@code get}, {@code delete} and {@code incr} are
 * recorded in a {@link History} as {@link CacheSpec} operations, the key as a word. An answer is recorded as the
 * response; a broken connection, a timeout or a {@code SERVER_ERROR} leaves the operation pending (it may or may
 * not have taken effect) and the call returns false, after which the connection is unusable; any other answer is
 * wrong and throws.
 */
final class TextOps implements AutoCloseable {
    private final TextClient client;
    private final History.Recorder recorder;
    private String lastFailure;

    TextOps(int port, History.Recorder recorder) throws IOException {
        this.client = new TextClient(port);
        this.recorder = recorder;
    }

    static String key(long word) {
        return "key" + word;
    }

    /** {@return whether {@code set key(k) v} was answered STORED; false when it is pending} */
    boolean set(long k, long v) {
        int op = recorder.invoke(CacheSpec.SET, k, v);
        String value = Long.toString(v);
        String answer = ask("set " + key(k) + " 0 0 " + value.length() + "\r\n" + value + "\r\n");
        if (answer == null) {
            return false;
        }
        expect(answer.equals("STORED"), "set " + key(k), answer);
        recorder.respond(op);
        return true;
    }

    /** {@return whether {@code get key(k)} was answered; false when it is pending} */
    boolean get(long k) {
        int op = recorder.invoke(CacheSpec.GET, k);
        String answer = ask("get " + key(k) + "\r\n");
        if (answer == null) {
            return false;
        }
        if (answer.equals("END")) {
            recorder.respond(op, 0);
            return true;
        }
        String[] f = answer.split(" ");
        expect(f.length == 4 && f[0].equals("VALUE") && f[1].equals(key(k)) && f[2].equals("0"), "get " + key(k), answer);
        try {
            String data = client.data(Integer.parseInt(f[3]));
            String end = client.line();
            if (end == null) {
                lastFailure = "the server closed the connection";
                return false;
            }
            expect(end.equals("END"), "get " + key(k) + " after its value", end);
            recorder.respond(op, 1, Long.parseLong(data));
            return true;
        } catch (IOException e) {
            lastFailure = e.toString();
            return false;
        }
    }

    /** {@return whether {@code delete key(k)} was answered; false when it is pending} */
    boolean delete(long k) {
        int op = recorder.invoke(CacheSpec.DELETE, k);
        String answer = ask("delete " + key(k) + "\r\n");
        if (answer == null) {
            return false;
        }
        expect(answer.equals("DELETED") || answer.equals("NOT_FOUND"), "delete " + key(k), answer);
        recorder.respond(op, answer.equals("DELETED") ? 1 : 0);
        return true;
    }

    /** {@return whether {@code incr key(k) 1} was answered; false when it is pending} */
    boolean incr(long k) {
        int op = recorder.invoke(CacheSpec.INCR, k, 1);
        String answer = ask("incr " + key(k) + " 1\r\n");
        if (answer == null) {
            return false;
        }
        if (answer.equals("NOT_FOUND")) {
            recorder.respond(op, 0);
            return true;
        }
        expect(answer.chars().allMatch(Character::isDigit) && !answer.isEmpty(), "incr " + key(k), answer);
        recorder.respond(op, 1, Long.parseLong(answer));
        return true;
    }

    /** {@return why the last pending operation is pending: the server's error line, or what broke} */
    String lastFailure() {
        return lastFailure;
    }

    /** {@return the answer's first line, or null when the operation is pending} */
    private String ask(String request) {
        try {
            client.send(request.getBytes(StandardCharsets.ISO_8859_1));
            String line = client.line();
            if (line == null || line.startsWith("SERVER_ERROR")) {
                lastFailure = line == null ? "the server closed the connection" : line;
                return null;
            }
            return line;
        } catch (IOException e) {
            lastFailure = e.toString();
            return null;
        }
    }

    private static void expect(boolean ok, String command, String answer) {
        if (!ok) {
            throw new AssertionError(command + " was answered '" + answer + "'");
        }
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (IOException ignored) {
            // the connection is gone either way
        }
    }
}
