/*
 * A QEMU TCG plugin that counts the guest's executed instructions, split by where they run: user
 * space (a translation block starting below 2^47) or the kernel (above). Every time a vCPU executes
 * the marker instruction `xchg %bx,%bx` (bytes 66 87 db; `softroce/diagnostics/insn-count/mark` runs it) the
 * plugin appends one line to the file named by its `out=` argument:
 *
 *     mark <sequence> user <instructions> kernel <instructions> host_ns <nanoseconds>
 *
 * with the counts since the guest started and the host's CLOCK_MONOTONIC when the mark ran (the
 * clock `perf record -k CLOCK_MONOTONIC` stamps its samples with, so that a profile of the QEMU
 * process can be cut at the marks: softroce/diagnostics/lib/hostprof_table.py). The difference between two marks is what the whole
 * guest executed between them, every process and the kernel, exactly: no sampling, no timer.
 * Counters are plain 64-bit adds, exact with one TCG thread (`-accel tcg,thread=single`, vm.sh's
 * default) and approximate with several.
 *
 * With `profile=FILE2` as well, the plugin also counts instructions per translation block start
 * address (every block that starts at one guest virtual address, whichever process it belongs to,
 * shares one counter) and at every mark appends to FILE2 what moved since the previous mark:
 *
 *     mark <sequence>
 *     <start address, hex> <instructions> <executions of blocks starting there>
 *     ...
 *
 * (softroce/diagnostics/lib/insn_profile.py names the kernel's addresses from the guest's /proc/kallsyms.)
 *
 * Build: softroce/diagnostics/insn-count/build. Use: qemu-system-x86_64 -plugin insn_split.so,out=FILE[,profile=FILE2] ...
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

/* profile=: one counter per translation block start address, in blocks that never move (the
 * generated code adds to them directly), found through an open-addressing index that doubles */
struct site {
    uint64_t vaddr;
    uint64_t insns;
    uint64_t execs;
    uint64_t reported_insns;
    uint64_t reported_execs;
};
#define SITES_PER_CHUNK 65536
static FILE *profile;
static struct site **chunks;
static size_t n_chunks;
static size_t n_sites;
static struct site **index_slots;
static size_t index_size;

static size_t slot_of(uint64_t vaddr, size_t size)
{
    return (size_t) ((vaddr * 0x9e3779b97f4a7c15ull) >> 17) & (size - 1);
}

static void index_put(struct site *s)
{
    size_t i = slot_of(s->vaddr, index_size);
    while (index_slots[i] != NULL) {
        i = (i + 1) & (index_size - 1);
    }
    index_slots[i] = s;
}

static struct site *site_of(uint64_t vaddr)
{
    size_t i = slot_of(vaddr, index_size);
    while (index_slots[i] != NULL) {
        if (index_slots[i]->vaddr == vaddr) {
            return index_slots[i];
        }
        i = (i + 1) & (index_size - 1);
    }
    if (2 * (n_sites + 1) > index_size) {
        struct site **old = index_slots;
        size_t old_size = index_size;
        index_size *= 2;
        index_slots = calloc(index_size, sizeof *index_slots);
        if (index_slots == NULL) {
            abort();
        }
        for (size_t k = 0; k < old_size; k++) {
            if (old[k] != NULL) {
                index_put(old[k]);
            }
        }
        free(old);
    }
    if (n_sites == n_chunks * SITES_PER_CHUNK) {
        chunks = realloc(chunks, (n_chunks + 1) * sizeof *chunks);
        if (chunks == NULL || (chunks[n_chunks] = calloc(SITES_PER_CHUNK, sizeof **chunks)) == NULL) {
            abort();
        }
        n_chunks++;
    }
    struct site *s = &chunks[n_sites / SITES_PER_CHUNK][n_sites % SITES_PER_CHUNK];
    n_sites++;
    s->vaddr = vaddr;
    index_put(s);
    return s;
}

static void report_profile(uint64_t mark)
{
    fprintf(profile, "mark %" PRIu64 "\n", mark);
    for (size_t k = 0; k < n_sites; k++) {
        struct site *s = &chunks[k / SITES_PER_CHUNK][k % SITES_PER_CHUNK];
        if (s->execs != s->reported_execs) {
            fprintf(profile, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", s->vaddr, s->insns - s->reported_insns,
                    s->execs - s->reported_execs);
            s->reported_insns = s->insns;
            s->reported_execs = s->execs;
        }
    }
    fflush(profile);
}

static void on_mark(unsigned int vcpu, void *userdata)
{
    (void) vcpu;
    (void) userdata;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    fprintf(out, "mark %" PRIu64 " user %" PRIu64 " kernel %" PRIu64 " host_ns %" PRIu64 "\n", ++marks, user_insns,
            kernel_insns, (uint64_t) now.tv_sec * 1000000000u + (uint64_t) now.tv_nsec);
    fflush(out);
    if (profile != NULL) {
        report_profile(marks);
    }
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void) id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    int kernel = (qemu_plugin_tb_vaddr(tb) >> 47) != 0;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                             kernel ? &kernel_insns : &user_insns, n);
    if (profile != NULL) {
        struct site *site = site_of(qemu_plugin_tb_vaddr(tb));
        qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &site->insns, n);
        qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &site->execs, 1);
    }
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
    if (profile != NULL) {
        fclose(profile);
    }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void) info;
    const char *path = NULL;
    const char *profile_path = NULL;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "out=", 4) == 0) {
            path = argv[i] + 4;
        } else if (strncmp(argv[i], "profile=", 8) == 0) {
            profile_path = argv[i] + 8;
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
    if (profile_path != NULL) {
        profile = fopen(profile_path, "w");
        if (profile == NULL) {
            perror(profile_path);
            return 1;
        }
        index_size = 1 << 20;
        index_slots = calloc(index_size, sizeof *index_slots);
        if (index_slots == NULL) {
            return 1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_guest_exit, NULL);
    return 0;
}
