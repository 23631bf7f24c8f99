// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare (first cut): prints what ptwalk.ko reports for every VMA of a
 * process, one line per extent.  The pagemap comparison builds on this.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libkmod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "diagnose.h"
#include "maps.h"
#include "ptwalk_client.h"
#include "record_text.h"

#define PTCOMPARE_VERSION "0.1"
#define BATCH 512

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptcompare [--range START-END] [--debugfs DIR] PID\n"
		"Prints the frames that back the memory of process PID, as ptwalk.ko\n"
		"finds them in its page tables, one line per extent.\n"
		"  --range START-END  only this range (hex, END exclusive)\n"
		"  --debugfs DIR      debugfs mount point (default %s)\n"
		"Exit status: 0 ok, 2 usage, 3 ptwalk not loaded, 4 not privileged,\n"
		"5 no such process, 6 process without memory, 7 internal error.\n",
		PTWALK_DEFAULT_DEBUGFS);
}

static enum module_state ptwalk_module_state(void)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);
	struct kmod_module *mod = NULL;
	enum module_state state = MODULE_STATE_UNKNOWN;

	if (!ctx)
		return state;
	if (!kmod_module_new_from_name(ctx, "ptwalk", &mod)) {
		int s = kmod_module_get_initstate(mod);

		if (s == KMOD_MODULE_LIVE || s == KMOD_MODULE_COMING)
			state = MODULE_LOADED;
		else if (s == -ENOENT)
			state = MODULE_NOT_LOADED;
		kmod_module_unref(mod);
	}
	kmod_unref(ctx);
	return state;
}

/* Reports a failed query or read about pid; returns the exit status. */
static int query_failed(int err, pid_t pid)
{
	char msg[256];
	int status = diagnose_query(err, pid, msg, sizeof(msg));

	fprintf(stderr, "ptcompare: %s\n", msg);
	return status;
}

/*
 * Asks ptwalk whether pid has an address space at all: a kernel thread has
 * an empty maps file, and only the module tells "no memory" (ENXIO) from
 * "nothing mapped".
 */
static int check_target(int fd, pid_t pid)
{
	int ret = ptwalk_query(fd, pid, 0, 4096);

	return ret ? query_failed(-ret, pid) : EXIT_OK;
}

/* Walks [start, end) of pid and prints its extents; exit status. */
static int print_range(int fd, pid_t pid, uint64_t start, uint64_t end,
		       struct ptwalk_record *recs)
{
	char line[1024];
	ssize_t n, i;
	int ret = ptwalk_query(fd, pid, start, end);

	if (ret)
		return query_failed(-ret, pid);
	while ((n = ptwalk_read(fd, recs, BATCH)) > 0) {
		for (i = 0; i < n; i++) {
			format_record(line, sizeof(line), &recs[i]);
			if (printf("%s\n", line) < 0)
				return EXIT_INTERNAL;
		}
	}
	return n < 0 ? query_failed((int)-n, pid) : EXIT_OK;
}

/* Every VMA of /proc/PID/maps below the user address space limit. */
static int print_vmas(int fd, const struct cli_options *o,
		      struct ptwalk_record *recs)
{
	struct maps_entry vma;
	char path[64], *line = NULL;
	size_t size = 0;
	int status;
	FILE *maps;

	status = check_target(fd, o->pid);
	if (status != EXIT_OK)
		return status;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)o->pid);
	maps = fopen(path, "re");
	if (!maps)
		return query_failed(errno == ENOENT ? ESRCH : errno, o->pid);
	while (status == EXIT_OK && getline(&line, &size, maps) > 0) {
		if (!maps_parse_line(line, &vma)) {
			fprintf(stderr, "ptcompare: unreadable line in %s: %.80s\n",
				path, line);
			status = EXIT_INTERNAL;
			break;
		}
		/* [vsyscall] lives in kernel space: no page table of the task. */
		if (!strcmp(vma.name, "[vsyscall]"))
			continue;
		printf("# %s\n", line);
		status = print_range(fd, o->pid, vma.start, vma.end, recs);
	}
	free(line);
	fclose(maps);
	return status;
}

int main(int argc, char **argv)
{
	struct cli_options o;
	struct ptwalk_record *recs;
	char err[256];
	int fd, status;

	if (!cli_parse(argc, argv, &o, err, sizeof(err))) {
		fprintf(stderr, "ptcompare: %s\n", err);
		return EXIT_USAGE;
	}
	if (o.help) {
		usage(stdout);
		return EXIT_OK;
	}
	if (o.version) {
		printf("ptcompare %s (ptwalk ABI %d)\n", PTCOMPARE_VERSION,
		       PTWALK_ABI_VERSION);
		return EXIT_OK;
	}
	fd = ptwalk_open(o.debugfs, PTWALK_QUERY_FILE, O_RDWR);
	if (fd < 0) {
		status = diagnose_open(-fd, ptwalk_module_state(), o.debugfs,
				       err, sizeof(err));
		fprintf(stderr, "ptcompare: %s\n", err);
		return status;
	}
	recs = calloc(BATCH, sizeof(*recs));
	if (!recs) {
		fprintf(stderr, "ptcompare: out of memory\n");
		close(fd);
		return EXIT_INTERNAL;
	}
	if (o.has_range)
		status = print_range(fd, o.pid, o.start, o.end, recs);
	else
		status = print_vmas(fd, &o, recs);
	free(recs);
	close(fd);
	if (fflush(stdout) == EOF) {
		fprintf(stderr, "ptcompare: cannot write the output: %s\n",
			strerror(errno));
		return EXIT_INTERNAL;
	}
	return status;
}
