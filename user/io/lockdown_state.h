/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's lockdown mode now, asked only to explain a failure. */
#ifndef PTCOMPARE_LOCKDOWN_STATE_H
#define PTCOMPARE_LOCKDOWN_STATE_H

#include "parse/lockdown.h"

/* Reads and parses path (LOCKDOWN_FILE); LOCKDOWN_UNKNOWN if unreadable. */
enum lockdown_mode lockdown_read(const char *path);

#endif /* PTCOMPARE_LOCKDOWN_STATE_H */
