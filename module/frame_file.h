/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file of a page-cache frame (PTWALK_IOC_FRAME_FILE): frame_file.c
 * says how, ptwalk_abi.h what.
 */
#ifndef PTWALK_FRAME_FILE_H
#define PTWALK_FRAME_FILE_H

#include <linux/compiler.h>
#include "ptwalk_abi.h"

/* The caller checked who asks. */
int ptwalk_frame_file_ioctl(void __user *arg);

#endif /* PTWALK_FRAME_FILE_H */
