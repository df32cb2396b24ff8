package io.remus.verbs.ffi.conformance;

import java.util.List;

/**
 * Renders the C probe: one program that includes the rdma-core and libc headers (with
 * {@code _GNU_SOURCE}, which declares {@code sched_setaffinity} and {@code sched_getcpu}) and prints,
 * for check {@code i}, one line {@code i v1 v2 ...} with the values of its C expressions. A
 * {@code #line} directive before each check makes gcc name the check in its error messages
 * (e.g. {@code ibv_sge.nope:1:5: error: 'struct ibv_sge' has no member named 'nope'}).
 */
public final class ProbeSource {
    /** The headers every probe includes. */
    public static final List<String> HEADERS = List.of("stddef.h", "stdio.h", "errno.h", "poll.h", "fcntl.h",
            "unistd.h", "sched.h", "sys/mman.h", "sys/syscall.h", "linux/mempolicy.h", "sys/socket.h",
            "netinet/in.h", "netdb.h", "infiniband/verbs.h", "rdma/rdma_cma.h");

    private ProbeSource() {
    }

    /**
     * @param checks the checks, numbered by their index
     * @return the C source text
     */
    public static String render(List<ProbeCheck> checks) {
        StringBuilder c = new StringBuilder("#define _GNU_SOURCE\n");
        for (String header : HEADERS) {
            c.append("#include <").append(header).append(">\n");
        }
        c.append("\nint main(void) {\n");
        for (int i = 0; i < checks.size(); i++) {
            ProbeCheck check = checks.get(i);
            List<String> expressions = check.cExpressions();
            if (expressions.isEmpty()) {
                continue;
            }
            c.append("#line 1 \"").append(check.label().replace("\"", "'")).append("\"\n");
            c.append("    printf(\"").append(i).append(" %lld".repeat(expressions.size())).append("\\n\"");
            for (String expression : expressions) {
                c.append(",\n        (long long)(").append(expression).append(")");
            }
            c.append(");\n");
        }
        c.append("#line 1 \"probe main\"\n    return 0;\n}\n");
        return c.toString();
    }
}
