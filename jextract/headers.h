/*
 * The headers the raw layer (io.remus.verbs.ffi) binds: jextract parses this one file.
 * <poll.h> is here only for struct pollfd, which the completion-channel wait uses; libc
 * functions themselves are not generated (the raw layer links them from the default lookup).
 */
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include <poll.h>
