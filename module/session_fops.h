/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file operations of a session (session_fops.c), registered under
 * debugfs and as /dev/ptwalk: the same protocol, checks and errors.
 */
#ifndef PTWALK_SESSION_FOPS_H
#define PTWALK_SESSION_FOPS_H

#include <linux/fs.h>

/* The binary protocol of ptwalk_abi.h. */
extern const struct file_operations ptwalk_query_fops;
/* The text view: "PID [START END]" in, one line per record out. */
extern const struct file_operations ptwalk_text_fops;

#endif /* PTWALK_SESSION_FOPS_H */
