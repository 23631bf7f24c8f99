// SPDX-License-Identifier: GPL-2.0
/* SIGINT and SIGTERM through a signalfd. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include "io/stop_signals.h"

int stop_signals_open(void)
{
	sigset_t set;
	int fd;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	fd = signalfd(-1, &set, SFD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

bool stop_signal_wait(int fd, uint64_t ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct signalfd_siginfo si;

	if (poll(&p, 1, (int)ms) <= 0)
		return false;
	return read(fd, &si, sizeof(si)) == sizeof(si);
}
