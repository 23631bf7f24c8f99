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
static void json_dma(struct json_writer *j, const struct vtop_view *v)
{
	struct page_detail d = vtop_detail(v);

	page_attrs_json(j, &d);
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

static void json_levels(struct json_writer *j, const struct ptwalk_vtop *w)
{
	jw_key(j, "levels");
	jw_begin_array(j);
	for (int l = 0; l < PTWALK_VTOP_NR_LEVELS; l++) {
		const char *state = level_state(w, l);

		if (!state)
			continue;
		jw_begin_object(j);
		jw_kv_str(j, "level", ptwalk_vtop_level_name(l));
		if (!strcmp(state, "folded")) {
			jw_kv_null(j, "index");
			jw_kv_null(j, "entry");
		} else {
			jw_kv_u64(j, "index", w->index[l]);
			jw_key(j, "entry");
			jw_hex_padded(j, w->entry[l], 16);
		}
		jw_kv_str(j, "state", state);
		jw_end_object(j);
	}
	jw_end_array(j);
}

static void json_leaf(struct json_writer *j, const struct ptwalk_vtop *w)
{
	uint64_t none = PTWALK_PFN_NONE;
	bool frame = has_frame(w);

	jw_kv_str(j, "stop", ptwalk_vtop_stop_name(w->stop));
	if (w->level == PTWALK_LEVEL_NONE) {
		jw_kv_null(j, "level");
		jw_kv_null(j, "page_size");
	} else {
		jw_kv_str(j, "level", ptwalk_level_name(w->level));
		jw_kv_u64(j, "page_size", vtop_leaf_size(w));
	}
	jw_kv_str(j, "kind", ptwalk_kind_name(w->kind));
	jw_kv_hex_or_null(j, "pfn", frame ? w->pfn : none, none);
	jw_kv_hex_or_null(j, "phys", frame ? phys_of(w) : none, none);
	jw_kv_hex_or_null(j, "leaf_pfn", frame ? leaf_pfn(w) : none, none);
	jw_kv_hex_or_null(j, "leaf_offset", frame ? leaf_offset(w) : none,
			  none);
	jw_key(j, "flags");
	jw_flag_names(j, w->flags, ptwalk_flag_name);
	if (w->stop == PTWALK_VTOP_STOP_NOT_PRESENT) {
		jw_kv_u64(j, "swap_type", w->swap_type);
		jw_kv_hex(j, "swap_offset", w->swap_offset);
	} else {
		jw_kv_null(j, "swap_type");
		jw_kv_null(j, "swap_offset");
	}
}

static void json_vma(struct json_writer *j, const struct vtop_view *v)
{
	/* ptwalk's own view, read with the walk; vma is maps' */
	jw_key(j, "walk_vma");
	if (v->walk.flags & PTWALK_F_NO_VMA) {
		jw_null(j);
	} else {
		jw_begin_object(j);
		jw_kv_hex(j, "start", v->walk.vma_start);
		jw_kv_hex(j, "end", v->walk.vma_end);
		jw_end_object(j);
	}
	jw_key(j, "vma");
	if (!v->vma.found) {
		jw_null(j);
		return;
	}
	jw_begin_object(j);
	jw_kv_hex(j, "start", v->vma.start);
	jw_kv_hex(j, "end", v->vma.end);
	jw_kv_str(j, "perms", v->vma.perms);
	jw_kv_str(j, "name", v->vma.name);
	jw_kv_bool(j, "deleted", v->vma.deleted);
	jw_key(j, "vm_flags");
	jw_flag_names(j, v->walk.flags & PTWALK_F_NO_VMA ? 0 :
		      v->walk.vm_flags, ptwalk_vm_flag_name);
	jw_end_object(j);
}

static void json_pagemap(struct json_writer *j, uint64_t raw)
{
	struct pagemap_entry pm;

	pagemap_decode(raw, &pm);
	jw_key(j, "pagemap");
	jw_begin_object(j);
	jw_key(j, "entry");
	jw_hex_padded(j, raw, 16);
	jw_kv_bool(j, "present", pm.present);
	jw_kv_bool(j, "swapped", pm.swapped);
	jw_kv_hex_or_null(j, "pfn", pm.present ? pm.pfn : PTWALK_PFN_NONE,
			  PTWALK_PFN_NONE);
	if (pm.swapped) {
		jw_kv_u64(j, "swap_type", pm.swap_type);
		jw_kv_hex(j, "swap_offset", pm.swap_offset);
	} else {
		jw_kv_null(j, "swap_type");
		jw_kv_null(j, "swap_offset");
	}
	jw_kv_bool(j, "soft_dirty", pm.soft_dirty);
	jw_kv_bool(j, "exclusive", pm.exclusive);
	jw_kv_bool(j, "uffd_wp", pm.uffd_wp);
	jw_kv_bool(j, "file", pm.file);
	jw_end_object(j);
}

int vtop_print_json(FILE *f, const struct vtop_view *v)
{
	struct json_writer j;

	jw_init(&j, f);
	jw_begin_object(&j);
	jw_kv_i64(&j, "pid", v->pid);
	jw_kv_str(&j, "comm", v->comm);
	jw_kv_str(&j, "kernel", v->kernel);
	jw_key(&j, "absent_flags");
	jw_flag_names(&j, v->absent_flags, ptwalk_flag_name);
	jw_kv_hex(&j, "addr", v->addr);
	jw_kv_u64(&j, "paging_levels", v->walk.nr_levels);
	json_levels(&j, &v->walk);
	json_leaf(&j, &v->walk);
	json_dma(&j, v);
	json_vma(&j, v);
	json_pagemap(&j, v->pagemap);
	jw_kv_str(&j, "class", page_class_name(v->cls));
	jw_kv_u64(&j, "rereads", v->rereads);
	jw_kv_str(&j, "verdict", v->cls == CLASS_MISMATCH ? "mismatch" : "ok");
	jw_end_object(&j);
	return jw_finish(&j);
}
