/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's lockdown mode, as /sys/kernel/security/lockdown shows it
 * ("none [integrity] confidentiality": the current one in brackets).
 * Under lockdown debugfs refuses files that can be written, so ptwalk is
 * reached through /dev/ptwalk instead.
 */
#ifndef PTCOMPARE_LOCKDOWN_H
#define PTCOMPARE_LOCKDOWN_H

#define LOCKDOWN_FILE "/sys/kernel/security/lockdown"

enum lockdown_mode {
	LOCKDOWN_UNKNOWN,	/* no lockdown LSM, securityfs not mounted, ... */
	LOCKDOWN_NONE,
	LOCKDOWN_INTEGRITY,
	LOCKDOWN_CONFIDENTIALITY,
};

/* The bracketed mode of the file's text; LOCKDOWN_UNKNOWN if none. */
enum lockdown_mode lockdown_parse(const char *text);

/* "none", "integrity", "confidentiality" or "unknown". */
const char *lockdown_name(enum lockdown_mode mode);

/* True for the modes in which debugfs refuses ptwalk's files. */
int lockdown_active(enum lockdown_mode mode);

/* Reads and parses path (LOCKDOWN_FILE); LOCKDOWN_UNKNOWN if unreadable. */
enum lockdown_mode lockdown_read(const char *path);

#endif /* PTCOMPARE_LOCKDOWN_H */
