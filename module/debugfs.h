/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PTWALK_DEBUGFS_H
#define PTWALK_DEBUGFS_H

int ptwalk_debugfs_init(void);
void ptwalk_debugfs_exit(void);

#endif /* PTWALK_DEBUGFS_H */
