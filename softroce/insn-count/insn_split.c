/*
 * A QEMU TCG plugin that counts the guest's executed instructions, split by where they run: user
 * space (a translation block starting below 2^47) or the kernel (above). Every time a vCPU executes
 * the marker instruction `xchg %bx,%bx` (bytes 66 87 db; `softroce/insn-count/mark` runs it) the
 * plugin appends one line to the file named by its `out=` argument:
 *
 *     mark <sequence> user <instructions> kernel <instructions> host_ns <nanoseconds>
 *
 * with the counts since the guest started and the host's CLOCK_MONOTONIC when the mark ran (the
 * clock `perf record -k CLOCK_MONOTONIC` stamps its samples with, so that a profile of the QEMU
 * process can be cut at the marks: softroce/lib/hostprof_table.py). The difference between two marks is what the whole
 * guest executed between them, every process and the kernel, exactly: no sampling, no timer.
 * Counters are plain 64-bit adds, exact with one TCG thread (`-accel tcg,thread=single`, vm.sh's
 * default) and approximate with several.
 *
 * Build: softroce/insn-count/build. Use: qemu-system-x86_64 -plugin insn_split.so,out=FILE ...
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t user_insns;
static uint64_t kernel_insns;
static uint64_t marks;
static FILE *out;

static const unsigned char MARKER[] = {0x66, 0x87, 0xdb};

static void on_mark(unsigned int vcpu, void *userdata)
{
    (void) vcpu;
    (void) userdata;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    fprintf(out, "mark %" PRIu64 " user %" PRIu64 " kernel %" PRIu64 " host_ns %" PRIu64 "\n", ++marks, user_insns,
            kernel_insns, (uint64_t) now.tv_sec * 1000000000u + (uint64_t) now.tv_nsec);
    fflush(out);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void) id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    int kernel = (qemu_plugin_tb_vaddr(tb) >> 47) != 0;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                             kernel ? &kernel_insns : &user_insns, n);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        if (qemu_plugin_insn_size(insn) == sizeof(MARKER)
            && memcmp(qemu_plugin_insn_data(insn), MARKER, sizeof(MARKER)) == 0) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS, NULL);
        }
    }
}

static void on_guest_exit(qemu_plugin_id_t id, void *userdata)
{
    (void) id;
    (void) userdata;
    fprintf(out, "exit user %" PRIu64 " kernel %" PRIu64 "\n", user_insns, kernel_insns);
    fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void) info;
    const char *path = NULL;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "out=", 4) == 0) {
            path = argv[i] + 4;
        }
    }
    if (path == NULL) {
        fprintf(stderr, "insn_split: give the output file: -plugin insn_split.so,out=FILE\n");
        return 1;
    }
    out = fopen(path, "w");
    if (out == NULL) {
        perror(path);
        return 1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_guest_exit, NULL);
    return 0;
}
