// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --phys: the I/O around engine/phys_map.c.  Every numeric
 * entry of /proc but ptcompare itself, VMA by VMA as /proc/PID/maps lists
 * them, through one ptwalk session; a process that exits on the way is
 * counted, not an error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "model/array.h"
#include "cmd/connect.h"
#include "cmd/mode_phys.h"
#include "io/ptwalk_client.h"
#include "io/source.h"
#include "parse/maps.h"
#include "report/diagnose.h"
#include "report/phys_print.h"

/*
 * The mappings of one VMA: 0, -ESRCH/-ENXIO when the process went away,
 * or another -errno.  Its VMA (and process, first time) join the tables
 * once one of its records maps a frame of the range.
 */
static int scan_vma(struct phys_scan *ps, pid_t pid, const char *comm,
		    const struct maps_entry *e)
{
	size_t before = ps->set.n;
	bool new_proc = !ps->nr_procs || ps->procs[ps->nr_procs - 1].pid != pid;
	uint32_t proc = (uint32_t)(new_proc ? ps->nr_procs : ps->nr_procs - 1);
	ssize_t n;
	int err;

	err = ptwalk_query(ps->fd, pid, e->start, e->end);
	if (err)
		return err;
	while ((n = ptwalk_read_ext(ps->fd, ps->buf, PHYS_BATCH)) > 0)
		for (ssize_t i = 0; i < n; i++) {
			err = phys_add(&ps->set, &ps->buf[i], pid, proc,
				       (uint32_t)ps->nr_vmas);
			if (err)
				return err;
		}
	if (n < 0)
		return (int)n;
	if (ps->set.n == before)
		return 0;
	struct phys_vma *vmas = array_grow(ps->vmas, &ps->cap_vmas,
					   ps->nr_vmas + 1, sizeof(*vmas), 16, 0);

	if (!vmas)
		return -ENOMEM;
	ps->vmas = vmas;
	ps->vmas[ps->nr_vmas] = (struct phys_vma){
		.start = e->start, .end = e->end, .name = strdup(e->name),
	};
	memcpy(ps->vmas[ps->nr_vmas].perms, e->perms, sizeof(e->perms));
	if (!ps->vmas[ps->nr_vmas].name)
		return -ENOMEM;
	ps->nr_vmas++;
	if (new_proc) {
		struct phys_proc *procs = array_grow(ps->procs, &ps->cap_procs,
						     ps->nr_procs + 1,
						     sizeof(*procs), 16, 0);

		if (!procs)
			return -ENOMEM;
		ps->procs = procs;
		ps->procs[ps->nr_procs].pid = pid;
		snprintf(ps->procs[ps->nr_procs].comm,
			 sizeof(ps->procs[0].comm), "%s", comm);
		ps->nr_procs++;
	}
	return 0;
}

int phys_scan_process(struct phys_scan *ps, pid_t pid)
{
	char path[64], comm[64], *line = NULL;
	size_t cap = 0;
	bool any = false;
	int err = 0;
	FILE *maps;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	maps = fopen(path, "re");
	if (!maps) {
		if (errno == ENOENT || errno == ESRCH) {
			ps->exited++;
			return 0;
		}
		return -errno;
	}
	ps->scanned++;
	proc_comm(pid, comm, sizeof(comm));
	while (!err && getline(&line, &cap, maps) > 0) {
		struct maps_entry e;

		if (!maps_parse_line(line, &e))
			continue;
		any = true;
		/* in kernel space, no page table of the task's (scan.c) */
		if (!strcmp(e.name, "[vsyscall]"))
			continue;
		err = scan_vma(ps, pid, comm, &e);
	}
	free(line);
	fclose(maps);
	if (err == -ESRCH) {
		ps->exited++;
		return 0;
	}
	if (err == -ENXIO || (!err && !any)) {
		/* a kernel thread, a zombie, or an exec's last moment */
		ps->no_mm++;
		return 0;
	}
	return err;
}

int phys_scan_all(struct phys_scan *ps, pid_t *pid)
{
	pid_t *pids;
	long n = proc_list_pids(&pids);
	int err = n < 0 ? (int)n : 0;

	for (long i = 0; !err && i < n; i++) {
		*pid = pids[i];
		err = phys_scan_process(ps, pids[i]);
	}
	free(pids);
	return err;
}

void phys_scan_init(struct phys_scan *ps, int fd,
		    const struct frame_run *runs, size_t n, unsigned int shift)
{
	memset(ps, 0, sizeof(*ps));
	ps->fd = fd;
	phys_set_init_runs(&ps->set, runs, n, shift, PHYS_MAX_MAPPINGS);
}

int phys_scan_view(struct phys_scan *ps, struct phys_view *v)
{
	long nr = memtype_conflicts(&ps->set, &ps->conflicts);

	if (nr < 0)
		return (int)nr;
	v->set = &ps->set;
	v->procs = ps->procs;
	v->vmas = ps->vmas;
	v->conflicts = ps->conflicts;
	v->nr_conflicts = (size_t)nr;
	v->scanned = ps->scanned;
	v->no_mm = ps->no_mm;
	v->exited = ps->exited;
	return 0;
}

void phys_scan_free(struct phys_scan *ps)
{
	free(ps->conflicts);
	ps->conflicts = NULL;
	for (size_t i = 0; i < ps->nr_vmas; i++)
		free(ps->vmas[i].name);
	free(ps->vmas);
	free(ps->procs);
	phys_set_free(&ps->set);
	ps->vmas = NULL;
	ps->procs = NULL;
	ps->nr_vmas = ps->nr_procs = 0;
}

static int print(const struct cli_options *o, const struct phys_view *v,
		 char *msg, size_t size)
{
	int err = 0;

	if (o->json)
		err = phys_print_json(stdout, v);
	else
		phys_print_text(stdout, v);
	if (diagnose_output(err, stdout, msg, size))
		return FAIL_INTERNAL;
	return v->nr_conflicts ? EXIT_MISMATCH : EXIT_OK;
}

int mode_phys(const struct cli_options *o, char *msg, size_t size)
{
	struct phys_scan *ps = malloc(sizeof(*ps));
	struct iomem iomem = { 0 };
	struct phys_view v = { 0 };
	struct page_geom geom;
	struct frame_run run;
	struct endpoint ep;
	enum failure why;
	struct utsname u;
	pid_t pid = 0;
	uint64_t mask;
	int status, err, fd;

	if (!ps) {
		snprintf(msg, size, "out of memory");
		return FAIL_INTERNAL;
	}
	fd = connect_ptwalk(o, &ep, &why, msg, size);
	if (fd < 0) {
		free(ps);
		return (int)why;
	}
	if (connect_geometry(&ep, &geom, msg, size)) {
		close(fd);
		free(ps);
		return FAIL_NO_MODULE;
	}
	/* whole frames of the kernel's pages */
	mask = geom_page_mask(&geom);
	v.start = o->phys_start & ~mask;
	v.end = (o->phys_end + mask) & ~mask;
	if (v.end < o->phys_end) {	/* rounding up wrapped around */
		close(fd);
		free(ps);
		snprintf(msg, size, "bad --phys: END is beyond the last page");
		return FAIL_USAGE;
	}
	run = (struct frame_run){
		v.start >> geom.shift, (v.end - v.start) >> geom.shift,
	};
	phys_scan_init(ps, fd, &run, 1, geom.shift);
	err = phys_scan_all(ps, &pid);
	if (!err)
		err = phys_scan_view(ps, &v);
	if (err) {
		status = err == -ENOMEM ? FAIL_INTERNAL :
			 (int)diagnose_query(-err, pid, msg, size);
		if (err == -ENOMEM)
			snprintf(msg, size, "out of memory");
		goto out;
	}
	v.iomem = proc_iomem_load(&iomem) ? &iomem : NULL;
	v.kernel = uname(&u) ? "?" : u.release;
	status = print(o, &v, msg, size);
out:
	iomem_free(&iomem);
	close(fd);
	phys_scan_free(ps);
	free(ps);
	return status;
}
