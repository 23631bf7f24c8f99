/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The facts about the host that explain a failure to reach ptwalk: whether
 * a kernel module is loaded (through libkmod, opened on demand) and the
 * kernel's lockdown mode (parse/lockdown.h reads its text).
 */
#ifndef PTCOMPARE_HOST_STATE_H
#define PTCOMPARE_HOST_STATE_H

#include <stdbool.h>
#include "model/outcome.h"
#include "parse/lockdown.h"

/* The library opened at run time (package libkmod2). */
#define LIBKMOD_SONAME "libkmod.so.2"

/* MODULE_STATE_UNKNOWN when libkmod is missing or cannot tell. */
enum module_state module_state_of(const char *name);

/* Reads and parses path (LOCKDOWN_FILE); LOCKDOWN_UNKNOWN if unreadable. */
enum lockdown_mode lockdown_read(const char *path);

#endif /* PTCOMPARE_HOST_STATE_H */
