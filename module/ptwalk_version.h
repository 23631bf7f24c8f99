/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The release of ptwalk.ko and ptcompare, in one place: modinfo, ptcompare
 * --version, the man page and dkms.conf must all say this (make
 * check-packaging compares them).
 */
#ifndef PTWALK_VERSION_H
#define PTWALK_VERSION_H

#define PTWALK_VERSION "0.2"

#endif /* PTWALK_VERSION_H */
