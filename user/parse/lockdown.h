/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's lockdown mode (model/outcome.h) from the text of
 * /sys/kernel/security/lockdown: "none [integrity] confidentiality", the
 * current mode in brackets.  io/host_state.h reads the file.
 */
#ifndef PTCOMPARE_LOCKDOWN_H
#define PTCOMPARE_LOCKDOWN_H

#include "model/outcome.h"

#define LOCKDOWN_FILE "/sys/kernel/security/lockdown"

/* The bracketed mode of the file's text; LOCKDOWN_UNKNOWN if none. */
enum lockdown_mode lockdown_parse(const char *text);

/* "none", "integrity", "confidentiality" or "unknown". */
const char *lockdown_name(enum lockdown_mode mode);

/* True for the modes in which debugfs refuses ptwalk's files. */
int lockdown_active(enum lockdown_mode mode);

#endif /* PTCOMPARE_LOCKDOWN_H */
