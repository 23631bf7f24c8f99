// SPDX-License-Identifier: GPL-2.0
/* ptcompare --json PID ADDR: one object, the schema in docs/json.md. */
#include <string.h>
#include "model/page.h"
#include "model/page_class.h"
#include "module/ptwalk_names.h"
#include "parse/pagemap.h"
#include "report/json.h"
#include "report/page_attrs.h"
#include "report/vtop_print.h"

/* "memtype", "dma_pinned", "node", as a range object has them. */
static void json_dma(struct json_writer *j, const struct vtop_view *v)
{
	struct page_detail d = vtop_page_detail(v);

	page_attrs_json(j, &d);
}

static void json_levels(struct json_writer *j, const struct ptwalk_vtop *w)
{
	jw_key(j, "levels");
	jw_begin_array(j);
	for (int l = 0; l < PTWALK_VTOP_NR_LEVELS; l++) {
		const char *state = vtop_level_state(w, l);

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

static void json_leaf(struct json_writer *j, const struct ptwalk_vtop *w,
			const struct page_geom *g)
{
	uint64_t none = PTWALK_PFN_NONE;
	bool frame = vtop_has_frame(w, g);

	jw_kv_str(j, "stop", ptwalk_vtop_stop_name(w->stop));
	if (w->level == PTWALK_LEVEL_NONE) {
		jw_kv_null(j, "level");
		jw_kv_null(j, "page_size");
	} else {
		jw_kv_str(j, "level", ptwalk_level_name(w->level));
		jw_kv_u64(j, "page_size", vtop_leaf_size(w, g));
	}
	jw_kv_str(j, "kind", ptwalk_kind_name(w->kind));
	jw_kv_hex_or_null(j, "pfn", frame ? w->pfn : none, none);
	jw_kv_hex_or_null(j, "phys", frame ? vtop_phys(w, g) : none, none);
	jw_kv_hex_or_null(j, "leaf_pfn", frame ? vtop_leaf_pfn(w, g) : none, none);
	jw_kv_hex_or_null(j, "leaf_offset", frame ? vtop_leaf_offset(w, g) : none,
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
	if (jw_kv_object_or_null(j, "walk_vma",
				 !(v->walk.flags & PTWALK_F_NO_VMA))) {
		jw_kv_start_end(j, v->walk.vma_start, v->walk.vma_end);
		jw_end_object(j);
	}
	if (!jw_kv_object_or_null(j, "vma", v->vma.found))
		return;
	jw_kv_start_end(j, v->vma.start, v->vma.end);
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
	jw_kv_u64(&j, "kernel_page_size", geom_page_size(&v->geom));
	json_levels(&j, &v->walk);
	json_leaf(&j, &v->walk, &v->geom);
	json_dma(&j, v);
	json_vma(&j, v);
	json_pagemap(&j, v->pagemap);
	jw_kv_str(&j, "class", page_class_name(v->cls));
	jw_kv_u64(&j, "rereads", v->rereads);
	jw_kv_str(&j, "verdict", v->cls == CLASS_MISMATCH ? "mismatch" : "ok");
	jw_end_object(&j);
	return jw_finish(&j);
}
