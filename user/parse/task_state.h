/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What /proc says of a process ptcompare stops for a read: each thread's
 * state letter (/proc/PID/task/TID/stat), its tracer (/proc/PID/status)
 * and which device a VFIO device file is of (/proc/PID/fdinfo/FD).
 */
#ifndef PTCOMPARE_PARSE_TASK_STATE_H
#define PTCOMPARE_PARSE_TASK_STATE_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * The state letter of a /proc/PID/stat line (the field after the name,
 * which may hold ')' and blanks itself), or '\0' if the line has none.
 */
char task_stat_state(const char *line);

/* Whether a thread in state s is stopped: 'T' (SIGSTOP) or 't' (a tracer). */
bool task_state_stopped(char s);

/*
 * Whether a thread in state s runs no more code until continued: stopped,
 * or a zombie ('Z') or dead ('X') thread of a live process.  A thread in
 * 'D' (inside an unmap, say) is not: it stops on its way out.
 */
bool task_state_still(char s);

/* The TracerPid of a /proc/PID/status text: 0 untraced, -1 not found. */
pid_t task_status_tracer(const char *status);

/*
 * Whether a /proc/PID/fdinfo/FD text is of a VFIO device file of PCI
 * device bdf: its "vfio-device-syspath:" line (6.9 on) ends in "/bdf".
 */
bool fdinfo_is_vfio_device(const char *fdinfo, const char *bdf);

#endif /* PTCOMPARE_PARSE_TASK_STATE_H */
