// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare PID ADDR, the resolver: both sides read for one address, the
 * class of its page, the VMA maps puts it in.  report/vtop_print_text.c
 * and report/vtop_print_json.c write what it found.
 */
#include <stdio.h>
#include <string.h>
#include "engine/classify.h"
#include "engine/compare.h"
#include "engine/vtop.h"
#include "model/page.h"
#include "parse/maps.h"
#include "parse/pagemap.h"

uint64_t vtop_leaf_size(const struct ptwalk_vtop *w,
			const struct page_geom *geom)
{
	return geom_leaf_size(geom, w->level, w->flags);
}

enum page_class vtop_classify(const struct ptwalk_vtop *w, uint64_t raw,
			      const struct page_geom *geom)
{
	struct ptwalk_record r = {
		.start = w->addr & ~geom_page_mask(geom),
		.nr_pages = 1,
		.pfn = w->pfn,
		.swap_offset = w->swap_offset,
		.vm_flags = w->vm_flags,
		.flags = w->flags,
		.level = w->level,
		.kind = w->kind,
		.swap_type = w->swap_type,
	};
	struct pagemap_entry pm;

	pagemap_decode(raw, &pm);
	return classify_page(&r, r.start, &pm, geom->shift);
}

/* Whether either side's answer differs from the read before (walk, pm). */
static bool sides_changed(const struct ptwalk_vtop *walk, uint64_t pm,
			  const struct vtop_view *v)
{
	struct pagemap_entry a, b;

	pagemap_decode(pm, &a);
	pagemap_decode(v->pagemap, &b);
	return walk->kind != v->walk.kind || walk->pfn != v->walk.pfn ||
	       walk->swap_type != v->walk.swap_type ||
	       walk->swap_offset != v->walk.swap_offset ||
	       !pagemap_same_answer(&a, &b);
}

/* Pagemap first, as the scan does. */
static int read_both(const struct vtop_io *io, uint64_t addr,
		     struct vtop_view *v)
{
	int err = io->read_pagemap(io->ctx, addr, &v->pagemap);

	return err ? err : io->walk(io->ctx, addr, &v->walk);
}

int vtop_resolve(const struct vtop_io *io, uint64_t addr, struct vtop_view *v)
{
	int err;

	v->addr = addr;
	v->rereads = 0;
	err = read_both(io, addr, v);
	if (err)
		return err;
	v->cls = vtop_classify(&v->walk, v->pagemap, &v->geom);
	while (v->cls == CLASS_MISMATCH && v->rereads < COMPARE_MAX_REREADS) {
		struct ptwalk_vtop walk = v->walk;
		uint64_t pagemap = v->pagemap;

		err = read_both(io, addr, v);
		if (err)
			return err;
		v->rereads++;
		v->cls = classify_reread(CLASS_MISMATCH,
					 vtop_classify(&v->walk, v->pagemap, &v->geom),
					 sides_changed(&walk, pagemap, v));
	}
	return 0;
}

bool vtop_vma_from_line(char *line, uint64_t addr, struct vtop_vma *vma)
{
	struct maps_entry e;

	if (!maps_parse_line(line, &e) || addr < e.start || addr >= e.end)
		return false;
	vma->found = true;
	vma->start = e.start;
	vma->end = e.end;
	memcpy(vma->perms, e.perms, sizeof(vma->perms));
	vma->deleted = e.deleted;
	snprintf(vma->name, sizeof(vma->name), "%s", e.name);
	return true;
}

enum exit_status vtop_exit_status(const struct vtop_view *v)
{
	return v->cls == CLASS_MISMATCH ? EXIT_MISMATCH : EXIT_OK;
}
