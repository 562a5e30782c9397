#ifndef WALLET_NETWORK_H
#define WALLET_NETWORK_H

#include "wallet_spawn.h"
#include <stdio.h>

/// In the spawned child, before the sandbox's mounts and change of user: enters the extension's
/// network namespace (a pre-made one, or the one clone made, whose `lo` it brings up) and, for
/// the egress proxy, listens on 127.0.0.1:`proxy_port` there and sends the listener to the host.
/// Returns 0, or -1 with errno. Nothing to do without `own_network`.
int wh_network_enter(const wh_sandbox_config *config);

/// Brings `lo` up in the calling thread's network namespace (SIOCSIFFLAGS). 0 or -1 with errno.
int wh_loopback_up(void);

#endif
