// SPDX-License-Identifier: GPL-2.0
/*
 * The DMA view's section, what both formats share: the spools the view's
 * runs and holes go to as the scan finds them, each in the report's
 * format (report_dma_text.c, report_dma_json.c).
 */
#include "report/report_dma.h"

void report_dma_init(struct report_dma *rd, enum report_format fmt,
		     const struct dma_view *view, FILE *runs, FILE *holes)
{
	*rd = (struct report_dma){ .view = view, .fmt = fmt, .runs = runs,
				   .holes = holes };
	jw_init(&rd->runs_json, runs);
	jw_init(&rd->holes_json, holes);
}

struct dma_sink report_dma_sink(struct report_dma *rd)
{
	if (rd->fmt == REPORT_JSON)
		return (struct dma_sink){ .run = report_dma_json_run,
					  .hole = report_dma_json_hole,
					  .arg = rd };
	return (struct dma_sink){ .run = report_dma_text_run,
				  .hole = report_dma_text_hole, .arg = rd };
}

void report_dma_copy(struct report_dma *rd, FILE *spool, FILE *out)
{
	int err = report_copy_spool(spool, out);

	if (err && !rd->err)
		rd->err = err;
}
