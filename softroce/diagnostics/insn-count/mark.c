/*
 * Executes the marker instruction `xchg %bx,%bx`, which the insn_split plugin logs with the
 * guest's instruction counts so far (softroce/diagnostics/insn-count/insn_split.c). A no-op on real hardware.
 *
 *   mark          executes it once and exits
 *   mark FIFO [DIR]
 *                 executes it once for every line written to FIFO, and echoes the line to standard
 *                 output, until killed: a JVM marks its measured window this way (the system
 *                 property remus.bench.windowMarks names FIFO). The FIFO is opened for reading and
 *                 writing, so that writers may come and go and a writer's open never waits. With
 *                 DIR (a device's hw_counters), after each mark every file in DIR is read and
 *                 written to standard error as "LINE NAME VALUE": the counters at the window's edges.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void marker(void)
{
    __asm__ volatile("xchg %%bx, %%bx" ::: "memory");
}

static void counters(const char *dir, const char *line)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        char path[512];
        char value[64];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        int fd = open(path, O_RDONLY);
        if (fd < 0) {
            continue;
        }
        ssize_t n = read(fd, value, sizeof(value) - 1);
        close(fd);
        if (n <= 0) {
            continue;
        }
        value[n] = '\0';
        value[strcspn(value, "\n")] = '\0';
        fprintf(stderr, "%s %s %s\n", line, e->d_name, value);
    }
    closedir(d);
    fflush(stderr);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        marker();
        return 0;
    }
    int fd = open(argv[1], O_RDWR);
    if (fd < 0) {
        perror(argv[1]);
        return 1;
    }
    char line[256];
    size_t used = 0;
    char c;
    while (read(fd, &c, 1) == 1) {
        if (c != '\n') {
            if (used < sizeof(line) - 1) {
                line[used++] = c;
            }
            continue;
        }
        marker();
        line[used] = '\0';
        if (argc > 2) {
            counters(argv[2], line);
        }
        printf("%s\n", line);
        fflush(stdout);
        used = 0;
    }
    return 0;
}
