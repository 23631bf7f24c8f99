// SPDX-License-Identifier: GPL-2.0
/* A page's attributes as the members of a JSON range or vtop object. */
#include "module/ptwalk_names.h"
#include "report/json.h"
#include "report/page_attrs.h"

void page_attrs_json(struct json_writer *w, const struct page_detail *d)
{
	enum dma_pin_state pin = walk_pin_state(d);
	int32_t node = walk_node(d);

	jw_key(w, "memtype");
	jw_str_or_null(w, ptwalk_memtype_name(walk_memtype(d)));
	if (pin == PIN_UNKNOWN)
		jw_kv_null(w, "dma_pinned");
	else
		jw_kv_bool(w, "dma_pinned", pin == PIN_YES);
	if (node >= 0)
		jw_kv_i64(w, "node", node);
	else
		jw_kv_null(w, "node");
}
