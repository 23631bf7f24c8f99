// SPDX-License-Identifier: GPL-2.0
/* What both --phys printers read off a mapping. */
#include "report/phys_print.h"

struct page_detail phys_page_detail(const struct phys_mapping *m)
{
	return (struct page_detail){
		.walk_kind = PTWALK_KIND_PRESENT,
		.walk = {
			.flags = m->flags, .vm_flags = m->vm_flags,
			.info = 1, .memtype = m->memtype, .node = m->node,
		},
	};
}

const char *phys_iomem_name(const struct phys_view *v, uint64_t pfn,
			    char *buf, size_t size)
{
	buf[0] = '\0';
	if (v->iomem && !v->iomem->zeroed)
		iomem_path(v->iomem,
			   iomem_find(v->iomem, pfn << v->set->page_shift),
			   buf, size);
	return buf;
}
