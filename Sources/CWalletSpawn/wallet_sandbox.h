#ifndef WALLET_SANDBOX_H
#define WALLET_SANDBOX_H

#include "wallet_spawn.h"

/// In the child, right after clone into the new namespaces: maps the user namespace (if any),
/// builds the sandbox's root from `config->paths` and pivots into it, then switches user.
/// Returns 0, or -1 with errno and `*stage` (a wh_spawn_stage) naming the step that failed.
int wh_sandbox_enter(const wh_sandbox_config *config, int *stage);

#endif
