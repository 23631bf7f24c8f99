// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare PID ADDR: the I/O around engine/vtop.c (ptwalk's vtop answer,
 * one pagemap entry, the VMA from /proc/PID/maps, the output).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "cmd/connect.h"
#include "cmd/mode_vtop.h"
#include "engine/vtop.h"
#include "io/proc_read.h"
#include "io/ptwalk_client.h"
#include "io/source.h"
#include "model/page.h"
#include "report/diagnose.h"
#include "report/vtop_print.h"

/* vtop: one ptwalk session and pagemap, for one address. */
struct vtop_source {
	pid_t pid;
	unsigned int page_shift;	/* pagemap: an entry per kernel page */
	int walk_fd;
	int pagemap_fd;
};

static int vtop_read_pagemap(void *ctx, uint64_t addr, uint64_t *raw)
{
	struct vtop_source *src = ctx;
	ssize_t n = proc_pread(src->pagemap_fd, raw, sizeof(*raw),
			       (off_t)(addr >> src->page_shift) *
			       (off_t)sizeof(*raw), NULL);

	if (n < 0)
		return (int)n;
	/* pagemap reads nothing once the process has no mm left */
	return n == sizeof(*raw) ? 0 : -ESRCH;
}

static int vtop_walk(void *ctx, uint64_t addr, struct ptwalk_vtop *out)
{
	struct vtop_source *src = ctx;

	return ptwalk_query_vtop(src->walk_fd, src->pid, addr, out);
}

struct vma_at {
	uint64_t addr;
	struct vtop_vma *vma;
};

static bool vma_holding(char *line, void *arg)
{
	struct vma_at *at = arg;

	return vtop_vma_from_line(line, at->addr, at->vma);
}

/* The VMA of maps holding addr; a missing one is not an error. */
static int vtop_find_vma(pid_t pid, uint64_t addr, struct vtop_vma *vma,
			 char *msg, size_t size)
{
	struct vma_at at = { addr, vma };
	int err = proc_maps_each(pid, vma_holding, &at);

	return err ? (int)diagnose_proc_open(-err, pid, "maps", msg, size) :
		     EXIT_OK;
}

int mode_vtop(const struct cli_options *o, char *msg, size_t size)
{
	struct vtop_source src = { .pid = o->pid, .pagemap_fd = -1 };
	struct vtop_io io = { vtop_read_pagemap, vtop_walk, &src };
	struct vtop_view v = { .pid = o->pid };
	struct endpoint ep;
	char path[64], comm[64];
	struct utsname u;
	enum failure why;
	int status, err;

	src.walk_fd = connect_ptwalk(o, &ep, &why, msg, size);
	if (src.walk_fd < 0)
		return (int)why;
	if (connect_geometry(&ep, &v.geom, msg, size)) {
		status = FAIL_NO_MODULE;
		goto out;
	}
	src.page_shift = v.geom.shift;
	/* ptwalk first: it alone tells ERANGE and an old module apart. */
	err = ptwalk_query_vtop(src.walk_fd, o->pid, o->vtop_addr, &v.walk);
	if (err) {
		status = (int)vtop_diagnose(-err, o->pid, o->vtop_addr, msg,
					    size);
		goto out;
	}
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)o->pid);
	src.pagemap_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (src.pagemap_fd < 0) {
		status = (int)diagnose_proc_open(errno, o->pid, "pagemap",
						 msg, size);
		goto out;
	}
	status = vtop_find_vma(o->pid, o->vtop_addr, &v.vma, msg, size);
	if (status != EXIT_OK)
		goto out;
	err = vtop_resolve(&io, o->vtop_addr, &v);
	if (err) {
		status = (int)diagnose_scan(-err, o->pid, proc_alive(o->pid),
					    msg, size);
		goto out;
	}
	proc_comm(o->pid, comm, sizeof(comm));
	v.comm = comm;
	v.kernel = uname(&u) ? "?" : u.release;
	v.absent_flags = connect_absent_flags(&ep);
	err = 0;
	if (o->json)
		err = vtop_print_json(stdout, &v);
	else
		vtop_print_text(stdout, &v);
	status = diagnose_output(err, stdout, msg, size);
	if (status == EXIT_OK)
		status = vtop_exit_status(&v);
out:
	fd_close(&src.pagemap_fd);
	close(src.walk_fd);
	return status;
}

