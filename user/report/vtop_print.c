// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare PID ADDR: what both printers read off engine/vtop.c's answer
 * (vtop_print_text.c, vtop_print_json.c).
 */
#include "model/page.h"
#include "module/ptwalk_names.h"
#include "report/vtop_print.h"

int vtop_last_level(const struct ptwalk_vtop *w)
{
	for (int l = PTWALK_VTOP_NR_LEVELS - 1; l >= 0; l--)
		if (w->walked >> l & 1)
			return l;
	return -1;
}

const char *vtop_level_state(const struct ptwalk_vtop *w, int l)
{
	if (ptwalk_vtop_folded((unsigned int)l, w->nr_levels))
		return "folded";
	if (!(w->walked >> l & 1))
		return NULL;
	if (l != vtop_last_level(w))
		return "table";
	return ptwalk_vtop_stop_name(w->stop);
}

uint64_t vtop_leaf_pfn(const struct ptwalk_vtop *w, const struct page_geom *g)
{
	uint64_t size = vtop_leaf_size(w, g);

	return w->pfn - ((w->addr & (size - 1)) >> g->shift);
}

uint64_t vtop_leaf_offset(const struct ptwalk_vtop *w,
			  const struct page_geom *g)
{
	return w->addr & (vtop_leaf_size(w, g) - 1);
}

uint64_t vtop_phys(const struct ptwalk_vtop *w, const struct page_geom *g)
{
	return w->pfn << g->shift | (w->addr & geom_page_mask(g));
}

bool vtop_has_frame(const struct ptwalk_vtop *w, const struct page_geom *g)
{
	return w->stop == PTWALK_VTOP_STOP_LEAF && w->pfn != PTWALK_PFN_NONE &&
	       vtop_leaf_size(w, g);
}

struct page_detail vtop_page_detail(const struct vtop_view *v)
{
	struct page_detail d = { .walk_kind = v->walk.kind };

	d.walk = (struct walk_bits){
		.flags = v->walk.flags, .vm_flags = v->walk.vm_flags,
		.info = v->walk.stop == PTWALK_VTOP_STOP_LEAF,
		.memtype = v->walk.memtype, .node = v->walk.node,
	};
	return d;
}
