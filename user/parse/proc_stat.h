/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/PID/stat, the two fields --all needs to skip what has no user
 * memory: the state (Z zombie, X dead) and the flags (PF_KTHREAD).  Pure.
 */
#ifndef PTCOMPARE_PROC_STAT_H
#define PTCOMPARE_PROC_STAT_H

#include <stdbool.h>

/* include/linux/sched.h: a kernel thread, which has no user memory. */
#define PROC_PF_KTHREAD 0x00200000UL

/*
 * "pid (comm) S ppid pgrp session tty_nr tpgid flags ...": the state and
 * the flags (the 9th field).  comm may hold spaces and parentheses, so
 * the fields are counted from the last ')'.  False for other text.
 */
bool proc_stat_parse(const char *text, char *state, unsigned long *flags);

#endif /* PTCOMPARE_PROC_STAT_H */
