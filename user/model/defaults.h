/* SPDX-License-Identifier: GPL-2.0 */
/* Where ptcompare looks for ptwalk.ko unless told otherwise. */
#ifndef PTCOMPARE_MODEL_DEFAULTS_H
#define PTCOMPARE_MODEL_DEFAULTS_H

/* debugfs mount point (--debugfs DIR); ptwalk's files are in DIR/ptwalk */
#define PTWALK_DEFAULT_DEBUGFS	"/sys/kernel/debug"
/*
 * ptwalk's device (--device DEV): the same protocol where debugfs cannot
 * be used (kernel lockdown); PTWALK_DEVICE_NAME of module/ptwalk_abi.h.
 */
#define PTWALK_DEFAULT_DEVICE	"/dev/ptwalk"

/*
 * --jobs N: at most this many jobs (each holds one engine, about 1.5 MiB
 * resident at most, and peak RSS stays under 16 MiB); the default is the
 * number of online CPUs, capped here.
 */
#define PTCOMPARE_JOBS_MAX	8

/*
 * --watch SECONDS, at most a day; --interval MS between readings: by
 * default a few a second, at least 10 ms (a reading of a large range
 * takes longer than that anyway), at most a minute.
 */
#define CLI_WATCH_MAX_S		86400
/* --since SECONDS: at most ten years back */
#define CLI_SINCE_MAX_S		315360000
#define CLI_INTERVAL_MIN_MS	10
#define CLI_INTERVAL_MAX_MS	60000
#define WATCH_DEFAULT_INTERVAL_MS 250

#endif /* PTCOMPARE_MODEL_DEFAULTS_H */
