/* Makes the process see WIDE_CPUS processors (default 16), for scripts/test-wide.sh: the Swift runtime sizes
 * its cooperative thread pool, and so how many test functions run at once, by the processors it is allowed
 * to use (pthread_getaffinity_np, then sysconf). Nothing else in the test process pins or places threads. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

static int wide_cpus(void) {
    const char *text = getenv("WIDE_CPUS");
    int count = text ? atoi(text) : 16;
    return count > 0 && count <= CPU_SETSIZE ? count : 16;
}

static void fill(size_t size, cpu_set_t *set) {
    memset(set, 0, size);
    for (int cpu = 0; cpu < wide_cpus(); cpu++) CPU_SET_S(cpu, size, set);
}

long sysconf(int name) {
    static long (*real)(int);
    if (!real) real = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
    if (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF) return wide_cpus();
    return real(name);
}

int get_nprocs(void) { return wide_cpus(); }
int get_nprocs_conf(void) { return wide_cpus(); }

int pthread_getaffinity_np(pthread_t thread, size_t size, cpu_set_t *set) {
    (void)thread;
    fill(size, set);
    return 0;
}

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set) {
    (void)pid;
    fill(size, set);
    return 0;
}
