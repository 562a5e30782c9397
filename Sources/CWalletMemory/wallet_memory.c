// The C library's allocator, which Swift's Glibc module does not reach (<malloc.h>).
#include "wallet_memory.h"

#include <malloc.h>

void wh_release_free_memory(void) {
    malloc_trim(0);
}
