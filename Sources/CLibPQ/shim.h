#ifndef STOCKROOM_CLIBPQ_SHIM_H
#define STOCKROOM_CLIBPQ_SHIM_H

// libpq-fe.h, for the LibPQ target, which declares its table of functions from it. Debian's
// libpq-dev puts it in /usr/include/postgresql; found without pkg-config, whose `--libs` would
// link libpq into every program (see Package.swift).
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif

#endif
