/* SPDX-License-Identifier: GPL-2.0 */
/* Where ptcompare looks for ptwalk.ko unless told otherwise. */
#ifndef PTCOMPARE_MODEL_DEFAULTS_H
#define PTCOMPARE_MODEL_DEFAULTS_H

/* debugfs mount point (--debugfs DIR); ptwalk's files are in DIR/ptwalk */
#define PTWALK_DEFAULT_DEBUGFS	"/sys/kernel/debug"

#endif /* PTCOMPARE_MODEL_DEFAULTS_H */
