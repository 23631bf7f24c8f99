/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PTWALK_CHARDEV_H
#define PTWALK_CHARDEV_H

int ptwalk_chardev_init(void);
void ptwalk_chardev_exit(void);

#endif /* PTWALK_CHARDEV_H */
