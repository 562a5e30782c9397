#include "wallet_spawn.h"
