// The C library's allocator, which Swift's Glibc module does not reach (<malloc.h>).
#ifndef WALLET_MEMORY_H
#define WALLET_MEMORY_H

/// Gives the kernel back the free memory of every malloc arena (`malloc_trim(0)`): after many
/// clients left, or after extensions were launched, what glibc keeps for reuse is not the
/// daemon's to hold.
void wh_release_free_memory(void);

#endif
