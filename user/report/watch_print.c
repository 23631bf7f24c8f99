// SPDX-License-Identifier: GPL-2.0
/* ptcompare --watch: text lines, or JSON Lines. */
#include <inttypes.h>
#include "module/ptwalk_names.h"
#include "report/format.h"
#include "report/json.h"
#include "report/watch_print.h"

void watch_print_start(FILE *f, bool json, const struct watch_totals *t,
		       uint64_t present_pages)
{
	uint64_t pages = (t->end - t->start) >> t->page_shift;
	struct json_writer w;

	if (!json) {
		fprintf(f, "watching pid %d 0x%" PRIx64 "-0x%" PRIx64 ": %" PRIu64
			" page%s, %" PRIu64 " mapped, a reading every %u ms\n",
			(int)t->pid, t->start, t->end, pages, plural(pages),
			present_pages, t->interval_ms);
		fflush(f);
		return;
	}
	jw_event_begin(&w, f, "start");
	jw_kv_i64(&w, "pid", t->pid);
	jw_kv_start_end(&w, t->start, t->end);
	jw_kv_u64(&w, "pages", pages);
	jw_kv_u64(&w, "present_pages", present_pages);
	jw_kv_u64(&w, "interval_ms", t->interval_ms);
	jw_event_end(&w);
}

/* "present 0x1234 pte node 0", "none", "swap 0x55", for the text line. */
static void state_text(FILE *f, const struct watch_page *p)
{
	const char *kind = ptwalk_kind_name(p->kind);
	const char *level = ptwalk_level_name(p->level);

	if (p->kind == PTWALK_KIND_NONE) {
		fputs("none", f);
		return;
	}
	fprintf(f, "%s", kind ? kind : "?");
	if (p->pfn != PTWALK_PFN_NONE)
		fprintf(f, " 0x%" PRIx64, p->pfn);
	if (p->kind == PTWALK_KIND_PRESENT && level)
		fprintf(f, " %s", level);
	if (p->kind == PTWALK_KIND_PRESENT && p->node >= 0)
		fprintf(f, " node %d", p->node);
}

static void state_json(struct json_writer *w, const char *key,
		       const struct watch_page *p)
{
	jw_key(w, key);
	jw_begin_object(w);
	jw_key(w, "kind");
	jw_str_or_null(w, ptwalk_kind_name(p->kind));
	jw_kv_hex_or_null(w, "pfn", p->pfn, PTWALK_PFN_NONE);
	jw_key(w, "level");
	jw_str_or_null(w, p->kind == PTWALK_KIND_PRESENT ?
			  ptwalk_level_name(p->level) : NULL);
	if (p->kind == PTWALK_KIND_PRESENT && p->node >= 0)
		jw_kv_i64(w, "node", p->node);
	else
		jw_kv_null(w, "node");
	jw_kv_bool(w, "dma_pinned", p->kind == PTWALK_KIND_PRESENT &&
				    (p->flags & PTWALK_F_DMA_PINNED));
	jw_kv_hex_or_null(w, "pagemap_pfn", p->pm_pfn, PTWALK_PFN_NONE);
	jw_end_object(w);
}

void watch_print_change(FILE *f, bool json, uint64_t ms,
			const struct watch_change *c)
{
	struct json_writer w;

	if (!json) {
		fprintf(f, "+%" PRIu64 ".%03" PRIu64 " s 0x%" PRIx64 " (%" PRIu64
			" page%s): ", ms / 1000, ms % 1000, c->start, c->pages,
			plural(c->pages));
		state_text(f, &c->old);
		fputs(" -> ", f);
		state_text(f, &c->new);
		fprintf(f, ": %s%s\n", watch_cause_name(c->cause),
			c->pinned_moved ?
			"; pinned_moved: a DMA-pinned page got another frame" :
			"");
		fflush(f);
		return;
	}
	jw_event_begin(&w, f, "change");
	jw_kv_u64(&w, "ms", ms);
	jw_kv_hex(&w, "start", c->start);
	jw_kv_u64(&w, "pages", c->pages);
	state_json(&w, "old", &c->old);
	state_json(&w, "new", &c->new);
	jw_kv_str(&w, "cause", watch_cause_name(c->cause));
	jw_kv_bool(&w, "pinned_moved", c->pinned_moved);
	jw_event_end(&w);
}

void watch_print_end(FILE *f, bool json, const struct watch_totals *t)
{
	struct json_writer w;

	if (!json) {
		fprintf(f, "watch ended (%s): %" PRIu64 " reading%s, %" PRIu64
			" change%s over %" PRIu64 " page%s",
			t->ended, t->readings, plural(t->readings), t->changes,
			plural(t->changes), t->pages_changed,
			plural(t->pages_changed));
		if (t->pinned_moved)
			fprintf(f, "; pinned_moved: %" PRIu64 " DMA-pinned page%s got another frame",
				t->pinned_moved, plural(t->pinned_moved));
		fputc('\n', f);
		fflush(f);
		return;
	}
	jw_event_begin(&w, f, "end");
	jw_kv_str(&w, "ended", t->ended);
	jw_kv_u64(&w, "readings", t->readings);
	jw_kv_u64(&w, "changes", t->changes);
	jw_kv_u64(&w, "pages_changed", t->pages_changed);
	jw_kv_u64(&w, "pinned_moved_pages", t->pinned_moved);
	jw_event_end(&w);
}
