// Counts heap allocations by defining malloc and its relatives in the executable, which the dynamic
// linker then binds every library to (glibc only), and forwarding to glibc's own __libc_* entry points.
#include "AllocCounter.h"

#include <time.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>
#include <malloc.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static uint64_t allocations;
static int64_t live_bytes;
static int64_t peak_bytes;

static void note_alloc(void *pointer) {
    if (!pointer) return;
    __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
    int64_t size = (int64_t)malloc_usable_size(pointer);
    int64_t live = __atomic_add_fetch(&live_bytes, size, __ATOMIC_RELAXED);
    int64_t peak = __atomic_load_n(&peak_bytes, __ATOMIC_RELAXED);
    while (live > peak && !__atomic_compare_exchange_n(&peak_bytes, &peak, live, 1, __ATOMIC_RELAXED,
                                                       __ATOMIC_RELAXED)) {
    }
}

static void note_free(void *pointer) {
    if (!pointer) return;
    __atomic_sub_fetch(&live_bytes, (int64_t)malloc_usable_size(pointer), __ATOMIC_RELAXED);
}

void *malloc(size_t size) {
    void *pointer = __libc_malloc(size);
    note_alloc(pointer);
    return pointer;
}

void *calloc(size_t count, size_t size) {
    void *pointer = __libc_calloc(count, size);
    note_alloc(pointer);
    return pointer;
}

void *realloc(void *old, size_t size) {
    note_free(old);
    void *pointer = __libc_realloc(old, size);
    if (pointer) {
        note_alloc(pointer);
    } else if (old && size != 0) {
        __atomic_add_fetch(&live_bytes, (int64_t)malloc_usable_size(old), __ATOMIC_RELAXED);
    }
    return pointer;
}

void free(void *pointer) {
    note_free(pointer);
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    void *pointer = __libc_memalign(alignment, size);
    note_alloc(pointer);
    return pointer;
}

void *aligned_alloc(size_t alignment, size_t size) {
    return memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    note_alloc(pointer);
    *result = pointer;
    return 0;
}

uint64_t alloc_counter_allocations(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }
int64_t alloc_counter_live_bytes(void) { return __atomic_load_n(&live_bytes, __ATOMIC_RELAXED); }
int64_t alloc_counter_peak_bytes(void) { return __atomic_load_n(&peak_bytes, __ATOMIC_RELAXED); }
void alloc_counter_reset_peak(void) { __atomic_store_n(&peak_bytes, alloc_counter_live_bytes(), __ATOMIC_RELAXED); }
int alloc_counter_is_active(void) { return alloc_counter_allocations() > 0; }

#else

uint64_t alloc_counter_allocations(void) { return 0; }
int64_t alloc_counter_live_bytes(void) { return 0; }
int64_t alloc_counter_peak_bytes(void) { return 0; }
void alloc_counter_reset_peak(void) {}
int alloc_counter_is_active(void) { return 0; }

#endif

int64_t alloc_counter_process_cpu_ns(void) {
    struct timespec time;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time);
    return (int64_t)time.tv_sec * 1000000000 + time.tv_nsec;
}

void alloc_counter_trim(void) {
#if defined(__linux__) && defined(__GLIBC__)
    malloc_trim(0);
#endif
}
