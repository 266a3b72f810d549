#ifndef ALLOC_COUNTER_H
#define ALLOC_COUNTER_H

#include <stdint.h>

/// Heap allocations made by the process since it started (malloc, calloc, realloc, aligned allocations).
uint64_t alloc_counter_allocations(void);
/// Bytes live on the heap now, as malloc_usable_size counts them.
int64_t alloc_counter_live_bytes(void);
/// The highest live byte count since the last reset.
int64_t alloc_counter_peak_bytes(void);
/// Sets the peak to the live byte count now.
void alloc_counter_reset_peak(void);
/// Whether the malloc interposition is in effect (0 on platforms without it).
int alloc_counter_is_active(void);
/// CPU time (user + system) used by the process so far, in nanoseconds.
int64_t alloc_counter_process_cpu_ns(void);
/// Returns the heap's free memory to the system (glibc's malloc_trim), so that a resident size measured next starts low.
void alloc_counter_trim(void);

#endif
