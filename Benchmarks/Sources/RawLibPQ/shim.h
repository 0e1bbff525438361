#ifndef STOCKROOM_BENCHMARKS_RAWLIBPQ_H
#define STOCKROOM_BENCHMARKS_RAWLIBPQ_H
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif
#endif
