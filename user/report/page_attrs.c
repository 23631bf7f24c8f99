// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include "module/ptwalk_names.h"
#include "report/json.h"
#include "report/page_attrs.h"

const char *page_attrs_text(char *buf, size_t size,
			    const struct page_detail *d)
{
	const char *mt = ptwalk_memtype_name(walk_memtype(d));
	enum dma_pin_state pin = walk_pin_state(d);
	int32_t node = walk_node(d);
	size_t len = 0;

	buf[0] = '\0';
	if (mt)
		len += (size_t)snprintf(buf + len, size - len, "%s", mt);
	if (pin != PIN_UNKNOWN && len < size)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					len ? ", " : "",
					pin == PIN_YES ? "dma-pinned" :
							 "not pinned");
	if (node >= 0 && len < size)
		snprintf(buf + len, size - len, "%snode %" PRId32,
			 len ? ", " : "", node);
	return buf;
}

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
