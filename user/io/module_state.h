/* SPDX-License-Identifier: GPL-2.0 */
/* Whether a kernel module is loaded, through libkmod (opened on demand). */
#ifndef PTCOMPARE_MODULE_STATE_H
#define PTCOMPARE_MODULE_STATE_H

#include <stdbool.h>
#include "model/outcome.h"

/* The library opened at run time (package libkmod2). */
#define LIBKMOD_SONAME "libkmod.so.2"

/* MODULE_STATE_UNKNOWN when libkmod is missing or cannot tell. */
enum module_state module_state_of(const char *name);

#endif /* PTCOMPARE_MODULE_STATE_H */
