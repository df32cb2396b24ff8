/**
 * FFM binding to libibverbs and librdmacm.
 *
 * <p>{@code io.remus.verbs} is the verbs API in plain English names; {@code io.remus.verbs.ffi}
 * is the raw layer in C names (jextract's output shape), exported only to the project's own
 * modules.
 */
module io.remus.verbs {
    exports io.remus.verbs;
}
