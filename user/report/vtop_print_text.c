// SPDX-License-Identifier: GPL-2.0
/* ptcompare PID ADDR as text: what engine/vtop.c resolved, level by level. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "model/flag_names.h"
#include "model/page.h"
#include "model/page_class.h"
#include "module/ptwalk_names.h"
#include "parse/pagemap.h"
#include "report/vtop_print.h"

/* The leaf's size as "4K", "64K", "2M", "32M", "1G"; "-" for none. */
static const char *size_name(char *buf, size_t size,
			     const struct ptwalk_vtop *w,
			     const struct page_geom *g)
{
	uint64_t bytes = vtop_leaf_size(w, g);

	if (!bytes)
		return "-";
	if (bytes >= 1ULL << 30)
		snprintf(buf, size, "%" PRIu64 "G", bytes >> 30);
	else if (bytes >= 1ULL << 20)
		snprintf(buf, size, "%" PRIu64 "M", bytes >> 20);
	else
		snprintf(buf, size, "%" PRIu64 "K", bytes >> 10);
	return buf;
}

static void text_levels(FILE *f, const struct ptwalk_vtop *w,
			const struct page_geom *g)
{
	char size[16];

	fprintf(f, "  level  index  entry\n");
	for (int l = 0; l < PTWALK_VTOP_NR_LEVELS; l++) {
		const char *state = vtop_level_state(w, l);

		if (!state)
			continue;
		if (!strcmp(state, "folded")) {
			fprintf(f, "  %-5s  %5s  folded into the pgd (%u-level paging)\n",
				ptwalk_vtop_level_name(l), "-", w->nr_levels);
			continue;
		}
		fprintf(f, "  %-5s  %5u  0x%016" PRIx64 "  %s",
			ptwalk_vtop_level_name(l), w->index[l],
			(uint64_t)w->entry[l], state);
		if (w->stop == PTWALK_VTOP_STOP_LEAF && l == vtop_last_level(w))
			fprintf(f, " (%s page)",
				size_name(size, sizeof(size), w, g));
		fputc('\n', f);
	}
}

static void text_entry(FILE *f, const struct ptwalk_vtop *w,
			const struct page_geom *g)
{
	char flags[512], size[16];

	flag_names_join(flags, sizeof(flags), w->flags, ptwalk_flag_name, "-");
	switch (w->stop) {
	case PTWALK_VTOP_STOP_LEAF:
		if (!vtop_has_frame(w, g))
			break;
		fprintf(f, "leaf:    %s, %s page at pfn 0x%" PRIx64
			" (phys 0x%" PRIx64 ")\n", ptwalk_level_name(w->level),
			size_name(size, sizeof(size), w, g), vtop_leaf_pfn(w, g),
			vtop_leaf_pfn(w, g) << g->shift);
		fprintf(f, "phys:    0x%" PRIx64 " = leaf base 0x%" PRIx64
			" + offset 0x%" PRIx64 " (pfn 0x%" PRIx64 ")\n",
			vtop_phys(w, g), vtop_leaf_pfn(w, g) << g->shift,
			vtop_leaf_offset(w, g), (uint64_t)w->pfn);
		break;
	case PTWALK_VTOP_STOP_NOT_PRESENT:
		fprintf(f, "entry:   not present (%s): %s, type %u offset 0x%"
			PRIx64 "\n", ptwalk_level_name(w->level),
			ptwalk_kind_name(w->kind), w->swap_type,
			(uint64_t)w->swap_offset);
		break;
	case PTWALK_VTOP_STOP_BAD:
		fprintf(f, "entry:   a bad entry (neither table nor leaf)\n");
		break;
	default:
		fprintf(f, "entry:   nothing mapped (the walk met an empty entry)\n");
		break;
	}
	fprintf(f, "flags:   %s\n", flags);
}

static void text_vma(FILE *f, const struct vtop_view *v)
{
	char vm[512];

	if (!v->vma.found) {
		fprintf(f, "vma:     none: no VMA holds this address%s\n",
			v->walk.flags & PTWALK_F_NO_VMA ? "" :
			" in maps (ptwalk found one: it changed meanwhile)");
		return;
	}
	flag_names_join(vm, sizeof(vm), v->walk.vm_flags, ptwalk_vm_flag_name,
			"-");
	fprintf(f, "vma:     0x%012" PRIx64 "-0x%012" PRIx64 " %s %s%s[%s]\n",
		v->vma.start, v->vma.end, v->vma.perms, v->vma.name,
		*v->vma.name ? " " : "",
		v->walk.flags & PTWALK_F_NO_VMA ? "ptwalk found no VMA" : vm);
}

static void text_pagemap(FILE *f, uint64_t raw)
{
	struct pagemap_entry pm;

	pagemap_decode(raw, &pm);
	fprintf(f, "pagemap: 0x%016" PRIx64 ": ", raw);
	if (pm.present && pm.pfn)
		fprintf(f, "present, pfn 0x%" PRIx64, pm.pfn);
	else if (pm.present)
		fprintf(f, "present, pfn hidden");
	else if (pm.swapped)
		fprintf(f, "swapped, type %u offset 0x%" PRIx64, pm.swap_type,
			pm.swap_offset);
	else
		fprintf(f, "not present (a hole)");
	fprintf(f, "%s%s%s%s%s\n", pm.exclusive ? ", exclusive" : "",
		pm.soft_dirty ? ", soft_dirty" : "",
		pm.file ? ", file or shared" : "", pm.uffd_wp ? ", uffd_wp" : "",
		pm.guard ? ", guard" : "");
}

/* Memory type, pinned state, node of a mapped frame. */
static void text_dma(FILE *f, const struct vtop_view *v)
{
	struct page_detail d = vtop_page_detail(v);
	const char *mt = ptwalk_memtype_name(walk_memtype(&d));
	enum dma_pin_state pin = walk_pin_state(&d);

	if (!vtop_has_frame(&v->walk, &v->geom))
		return;
	fprintf(f, "memtype: %s\n", mt ? mt : "unknown (a PAT or MAIR index the kernel does not use)");
	fprintf(f, "pinned:  %s\n", pin == PIN_YES ?
		"yes (page_maybe_dma_pinned(): pinned with FOLL_PIN, or over 1024 references)" :
		pin == PIN_NO ? "no" : "unknown (no struct page)");
	if (walk_node(&d) >= 0)
		fprintf(f, "node:    %d\n", (int)walk_node(&d));
	else
		fprintf(f, "node:    none (no struct page)\n");
}

void vtop_print_text(FILE *f, const struct vtop_view *v)
{
	fprintf(f, "ptcompare: pid %d (%s), kernel %s: address 0x%" PRIx64
		", %u-level paging\n\n", (int)v->pid, v->comm, v->kernel,
		v->addr, v->walk.nr_levels);
	text_levels(f, &v->walk, &v->geom);
	fputc('\n', f);
	text_entry(f, &v->walk, &v->geom);
	if (v->absent_flags) {
		char absent[256];

		flag_names_join(absent, sizeof(absent), v->absent_flags,
				ptwalk_flag_name, ",");
		fprintf(f, "absent:  %s (not on this architecture: never set, not false)\n",
			absent);
	}
	text_dma(f, v);
	text_vma(f, v);
	text_pagemap(f, v->pagemap);
	fprintf(f, "class:   %s: %s\n", page_class_name(v->cls),
		page_class_info(v->cls)->page);
	if (v->rereads)
		fprintf(f, "         (both sides read %u more time%s)\n",
			v->rereads, v->rereads > 1 ? "s" : "");
	fprintf(f, "verdict: %s\n", v->cls == CLASS_MISMATCH ? "MISMATCH" : "ok");
}
