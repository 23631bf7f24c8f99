// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>
#include <sys/types.h>
#include "report/phys_print.h"
#include "report/report.h"
#include "report/report_dma.h"
#include "report/report_witness.h"

void report_add_dma(struct report *r, struct report_dma *rd)
{
	r->dma = rd;
}

void report_init(struct report *r, enum report_format fmt, FILE *out,
		 FILE *vmas, FILE *ranges, const struct page_geom *geom,
		 uint32_t absent_flags)
{
	memset(r, 0, sizeof(*r));
	r->geom = *geom;
	r->absent_flags = absent_flags;
	r->fmt = fmt;
	r->out = out;
	r->vmas = vmas;
	r->ranges = ranges;
	jw_init(&r->json, out);
	jw_init(&r->vmas_json, vmas);
	jw_init(&r->ranges_json, ranges);
}

static const struct report_ops *ops(const struct report *r)
{
	return r->fmt == REPORT_JSON ? &report_json_ops : &report_text_ops;
}

void report_add_witnesses(struct report *r, const struct witness_totals *w,
			  FILE *physical)
{
	r->witness = w;
	r->physical = physical;
}

void report_range(struct report *r, const struct verdict_range *vr,
		  const struct witness_note *note)
{
	ops(r)->range(r, vr, note);
}

void report_vma(struct report *r, const struct maps_entry *m, uint64_t start,
		uint64_t end, const struct compare_summary *sum, bool examined)
{
	if (examined) {
		for (int c = 0; c < NR_CLASSES; c++) {
			r->totals[c] += sum->pages[c];
			r->pages += sum->pages[c];
		}
		huge_add(&r->huge, sum);
		r->rereads += sum->rereads;
	}
	if (r->vmas)
		ops(r)->vma(r, m, start, end, sum, examined);
	r->nr_vmas++;
}

uint64_t report_witness_bad(const struct report *r)
{
	return r->witness ? r->witness->bad_pages : 0;
}

void report_add_memtypes(struct report *r, const struct phys_view *v,
			 uint64_t unchecked)
{
	r->memtypes = v;
	r->memtype_unchecked = unchecked;
}

size_t report_conflicts(const struct report *r)
{
	return r->memtypes ? r->memtypes->nr_conflicts : 0;
}

bool report_has_mismatch(const struct report *r)
{
	return r->totals[CLASS_MISMATCH] != 0 || report_witness_bad(r) != 0 ||
	       report_conflicts(r) != 0;
}

int report_copy_findings(struct report *r, FILE *out)
{
	if (ferror(r->ranges))
		return -EIO;
	return report_copy_spool(r->ranges, out);
}

int report_finish(struct report *r, const struct report_target *t)
{
	int err;

	if ((r->vmas && ferror(r->vmas)) || ferror(r->ranges))
		return -EIO;
	if (r->dma && (ferror(r->dma->runs) || ferror(r->dma->holes)))
		return -EIO;
	ops(r)->head(r, t);
	err = report_copy_spool(r->vmas, r->out);
	if (err)
		return err;
	ops(r)->middle(r);
	err = report_copy_spool(r->ranges, r->out);
	if (err)
		return err;
	ops(r)->tail(r);
	if (r->dma && r->dma->err)
		return r->dma->err;
	err = report_json_error(r);
	if (err)
		return err;
	if (fflush(r->out) == EOF || ferror(r->out))
		return errno ? -errno : -EIO;
	return 0;
}
