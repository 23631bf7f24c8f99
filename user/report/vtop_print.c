// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare PID ADDR, the printers: what engine/vtop.c resolved, level by
 * level, as text or as one JSON object.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "model/flag_names.h"
#include "model/page.h"
#include "model/page_class.h"
#include "module/ptwalk_names.h"
#include "parse/pagemap.h"
#include "report/json.h"
#include "report/page_attrs.h"
#include "report/vtop_print.h"

/* The leaf's size as "4K", "64K", "2M", "32M", "1G"; "-" for none. */
static const char *size_name(char *buf, size_t size,
			     const struct ptwalk_vtop *w)
{
	uint64_t bytes = vtop_leaf_size(w);

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

/* The highest level the walk read: where it stopped. */
static int last_level(const struct ptwalk_vtop *w)
{
	for (int l = PTWALK_VTOP_NR_LEVELS - 1; l >= 0; l--)
		if (w->walked >> l & 1)
			return l;
	return -1;
}

static bool p4d_folded(const struct ptwalk_vtop *w)
{
	return w->nr_levels < 5;
}

/* What the entry of level l says about the walk: "table", "leaf", ... */
static const char *level_state(const struct ptwalk_vtop *w, int l)
{
	if (l == PTWALK_VTOP_P4D && p4d_folded(w))
		return "folded";
	if (!(w->walked >> l & 1))
		return NULL;
	if (l != last_level(w))
		return "table";
	return ptwalk_vtop_stop_name(w->stop);
}

/* Frame of the leaf's first page, and where addr lies inside the leaf. */
static uint64_t leaf_pfn(const struct ptwalk_vtop *w)
{
	uint64_t size = vtop_leaf_size(w);

	return w->pfn - ((w->addr & (size - 1)) >> PAGE_SHIFT_4K);
}

static uint64_t leaf_offset(const struct ptwalk_vtop *w)
{
	return w->addr & (vtop_leaf_size(w) - 1);
}

static uint64_t phys_of(const struct ptwalk_vtop *w)
{
	return w->pfn << PAGE_SHIFT_4K | (w->addr & PAGE_MASK_4K);
}

static bool has_frame(const struct ptwalk_vtop *w)
{
	return w->stop == PTWALK_VTOP_STOP_LEAF && w->pfn != PTWALK_PFN_NONE &&
	       vtop_leaf_size(w);
}

static void text_levels(FILE *f, const struct ptwalk_vtop *w)
{
	char size[16];

	fprintf(f, "  level  index  entry\n");
	for (int l = 0; l < PTWALK_VTOP_NR_LEVELS; l++) {
		const char *state = level_state(w, l);

		if (!state)
			continue;
		if (!strcmp(state, "folded")) {
			fprintf(f, "  %-5s  %5s  folded into the pgd (4-level paging)\n",
				ptwalk_vtop_level_name(l), "-");
			continue;
		}
		fprintf(f, "  %-5s  %5u  0x%016" PRIx64 "  %s",
			ptwalk_vtop_level_name(l), w->index[l],
			(uint64_t)w->entry[l], state);
		if (w->stop == PTWALK_VTOP_STOP_LEAF && l == last_level(w))
			fprintf(f, " (%s page)",
				size_name(size, sizeof(size), w));
		fputc('\n', f);
	}
}

static void text_entry(FILE *f, const struct ptwalk_vtop *w)
{
	char flags[512], size[16];

	flag_names_join(flags, sizeof(flags), w->flags, ptwalk_flag_name, "-");
	switch (w->stop) {
	case PTWALK_VTOP_STOP_LEAF:
		if (!has_frame(w))
			break;
		fprintf(f, "leaf:    %s, %s page at pfn 0x%" PRIx64
			" (phys 0x%" PRIx64 ")\n", ptwalk_level_name(w->level),
			size_name(size, sizeof(size), w), leaf_pfn(w),
			leaf_pfn(w) << PAGE_SHIFT_4K);
		fprintf(f, "phys:    0x%" PRIx64 " = leaf base 0x%" PRIx64
			" + offset 0x%" PRIx64 " (pfn 0x%" PRIx64 ")\n",
			phys_of(w), leaf_pfn(w) << PAGE_SHIFT_4K,
			leaf_offset(w), (uint64_t)w->pfn);
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

/* What the reports know of a page, from the vtop answer. */
static struct page_detail vtop_detail(const struct vtop_view *v)
{
	struct page_detail d = { .walk_kind = v->walk.kind };

	d.walk = (struct walk_bits){
		.flags = v->walk.flags, .vm_flags = v->walk.vm_flags,
		.info = v->info && v->walk.stop == PTWALK_VTOP_STOP_LEAF,
		.memtype = v->walk.memtype, .node = v->walk.node,
	};
	return d;
}

/* Memory type, pinned state, node of a mapped frame. */
static void text_dma(FILE *f, const struct vtop_view *v)
{
	struct page_detail d = vtop_detail(v);
	const char *mt = ptwalk_memtype_name(walk_memtype(&d));
	enum dma_pin_state pin = walk_pin_state(&d);

	if (!has_frame(&v->walk))
		return;
	if (!v->info) {
		fprintf(f, "dma:     memory type, pinned state, node unknown: this ptwalk.ko predates extended records\n");
		return;
	}
	fprintf(f, "memtype: %s\n", mt ? mt : "unknown (a PAT or MAIR index the kernel does not use)");
	fprintf(f, "pinned:  %s\n", pin == PIN_YES ?
		"yes (page_maybe_dma_pinned(): pinned with FOLL_PIN, or over 1024 references)" :
		pin == PIN_NO ? "no" : "unknown (no struct page)");
	if (walk_node(&d) >= 0)
		fprintf(f, "node:    %d\n", (int)walk_node(&d));
	else
		fprintf(f, "node:    none (no struct page)\n");
}

/* "memtype", "dma_pinned", "node", as a range object has them. */
static void json_dma(FILE *f, const struct vtop_view *v)
{
	struct page_detail d = vtop_detail(v);

	page_attrs_json(f, &d);
}

void vtop_print_text(FILE *f, const struct vtop_view *v)
{
	fprintf(f, "ptcompare: pid %d (%s), kernel %s: address 0x%" PRIx64
		", %u-level paging\n\n", (int)v->pid, v->comm, v->kernel,
		v->addr, v->walk.nr_levels);
	text_levels(f, &v->walk);
	fputc('\n', f);
	text_entry(f, &v->walk);
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

static void json_levels(FILE *f, const struct ptwalk_vtop *w)
{
	unsigned int n = 0;

	fputs("\"levels\":[", f);
	for (int l = 0; l < PTWALK_VTOP_NR_LEVELS; l++) {
		const char *state = level_state(w, l);

		if (!state)
			continue;
		fprintf(f, "%s{\"level\":\"%s\",", n++ ? "," : "",
			ptwalk_vtop_level_name(l));
		if (!strcmp(state, "folded"))
			fputs("\"index\":null,\"entry\":null", f);
		else
			fprintf(f, "\"index\":%u,\"entry\":\"0x%016" PRIx64 "\"",
				w->index[l], (uint64_t)w->entry[l]);
		fprintf(f, ",\"state\":\"%s\"}", state);
	}
	fputs("]", f);
}

static void json_leaf(FILE *f, const struct ptwalk_vtop *w)
{
	bool frame = has_frame(w);
	bool swap = w->stop == PTWALK_VTOP_STOP_NOT_PRESENT;

	fprintf(f, ",\"stop\":\"%s\",\"level\":", ptwalk_vtop_stop_name(w->stop));
	if (w->level == PTWALK_LEVEL_NONE)
		fputs("null,\"page_size\":null", f);
	else
		fprintf(f, "\"%s\",\"page_size\":%" PRIu64,
			ptwalk_level_name(w->level), vtop_leaf_size(w));
	fprintf(f, ",\"kind\":\"%s\",\"pfn\":", ptwalk_kind_name(w->kind));
	json_hex_or_null(f, frame ? w->pfn : PTWALK_PFN_NONE, PTWALK_PFN_NONE);
	fputs(",\"phys\":", f);
	json_hex_or_null(f, frame ? phys_of(w) : PTWALK_PFN_NONE,
			 PTWALK_PFN_NONE);
	fputs(",\"leaf_pfn\":", f);
	json_hex_or_null(f, frame ? leaf_pfn(w) : PTWALK_PFN_NONE,
			 PTWALK_PFN_NONE);
	fputs(",\"leaf_offset\":", f);
	json_hex_or_null(f, frame ? leaf_offset(w) : PTWALK_PFN_NONE,
			 PTWALK_PFN_NONE);
	fputs(",\"flags\":", f);
	json_flag_names(f, w->flags, ptwalk_flag_name);
	if (swap)
		fprintf(f, ",\"swap_type\":%u,\"swap_offset\":\"0x%" PRIx64 "\"",
			w->swap_type, (uint64_t)w->swap_offset);
	else
		fputs(",\"swap_type\":null,\"swap_offset\":null", f);
}

static void json_vma(FILE *f, const struct vtop_view *v)
{
	/* ptwalk's own view, read with the walk; vma is maps' */
	fputs(",\"walk_vma\":", f);
	if (v->walk.flags & PTWALK_F_NO_VMA)
		fputs("null", f);
	else
		fprintf(f, "{\"start\":\"0x%" PRIx64 "\",\"end\":\"0x%" PRIx64
			"\"}", (uint64_t)v->walk.vma_start,
			(uint64_t)v->walk.vma_end);
	fputs(",\"vma\":", f);
	if (!v->vma.found) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"start\":\"0x%" PRIx64 "\",\"end\":\"0x%" PRIx64
		"\",\"perms\":", v->vma.start, v->vma.end);
	json_string(f, v->vma.perms);
	fputs(",\"name\":", f);
	json_string(f, v->vma.name);
	fprintf(f, ",\"deleted\":%s,\"vm_flags\":",
		v->vma.deleted ? "true" : "false");
	json_flag_names(f, v->walk.flags & PTWALK_F_NO_VMA ? 0 :
			v->walk.vm_flags, ptwalk_vm_flag_name);
	fputc('}', f);
}

static const char *json_bool(bool b)
{
	return b ? "true" : "false";
}

static void json_pagemap(FILE *f, uint64_t raw)
{
	struct pagemap_entry pm;

	pagemap_decode(raw, &pm);
	fprintf(f, ",\"pagemap\":{\"entry\":\"0x%016" PRIx64
		"\",\"present\":%s,\"swapped\":%s,\"pfn\":", raw,
		json_bool(pm.present), json_bool(pm.swapped));
	json_hex_or_null(f, pm.present ? pm.pfn : PTWALK_PFN_NONE,
			 PTWALK_PFN_NONE);
	if (pm.swapped)
		fprintf(f, ",\"swap_type\":%u,\"swap_offset\":\"0x%" PRIx64 "\"",
			pm.swap_type, pm.swap_offset);
	else
		fputs(",\"swap_type\":null,\"swap_offset\":null", f);
	fprintf(f, ",\"soft_dirty\":%s,\"exclusive\":%s,\"uffd_wp\":%s,"
		"\"file\":%s}", json_bool(pm.soft_dirty),
		json_bool(pm.exclusive), json_bool(pm.uffd_wp),
		json_bool(pm.file));
}

void vtop_print_json(FILE *f, const struct vtop_view *v)
{
	fprintf(f, "{\"pid\":%d,\"comm\":", (int)v->pid);
	json_string(f, v->comm);
	fputs(",\"kernel\":", f);
	json_string(f, v->kernel);
	fputs(",\"absent_flags\":", f);
	json_flag_names(f, v->absent_flags, ptwalk_flag_name);
	fprintf(f, ",\"addr\":\"0x%" PRIx64 "\",\"paging_levels\":%u,",
		v->addr, v->walk.nr_levels);
	json_levels(f, &v->walk);
	json_leaf(f, &v->walk);
	json_dma(f, v);
	json_vma(f, v);
	json_pagemap(f, v->pagemap);
	fprintf(f, ",\"class\":\"%s\",\"rereads\":%u,\"verdict\":\"%s\"}\n",
		page_class_name(v->cls), v->rereads,
		v->cls == CLASS_MISMATCH ? "mismatch" : "ok");
}
