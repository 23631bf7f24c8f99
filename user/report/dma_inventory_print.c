// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include "report/dma_inventory_print.h"

static const char *const kinds[] = {
	[PTWALK_DMA_PAGE] = "page", [PTWALK_DMA_RESOURCE] = "resource",
	[PTWALK_DMA_SG] = "sg", [PTWALK_DMA_COHERENT] = "coherent",
	[PTWALK_DMA_PAGES] = "pages", [PTWALK_DMA_SGT] = "sgt",
};

static const char *const dirs[] = {
	"bidirectional", "to_device", "from_device", "none",
};

static const char *kind_name(uint32_t k)
{
	return k < sizeof(kinds) / sizeof(kinds[0]) && kinds[k] ? kinds[k] : "?";
}

static const char *dir_name(uint32_t d)
{
	return d < sizeof(dirs) / sizeof(dirs[0]) ? dirs[d] : "?";
}

unsigned int dma_inventory_count(const struct dma_inventory *inv,
				 unsigned int per[DMA_NR_FINDINGS])
{
	unsigned int total = 0;

	for (int f = 0; f < DMA_NR_FINDINGS; f++)
		per[f] = 0;
	for (size_t i = 0; i < inv->n; i++)
		for (int f = 0; f < DMA_NR_FINDINGS; f++)
			if (inv->items[i].findings & (1u << f)) {
				per[f]++;
				total++;
			}
	return total;
}

void dma_inventory_print_text(FILE *f, const struct dma_inventory *inv)
{
	unsigned int per[DMA_NR_FINDINGS];
	unsigned int total = dma_inventory_count(inv, per);

	fprintf(f, "%s (driver %s): %u live DMA mappings tracked, %" PRIu64
		" not kept (no room), %" PRIu64 " unmaps of mappings not kept\n",
		inv->device, inv->driver[0] ? inv->driver : "none",
		inv->q->live, (uint64_t)inv->q->overflow,
		(uint64_t)inv->q->unmapped_unknown);
	for (size_t i = 0; i < inv->n; i++) {
		const struct dma_item *it = &inv->items[i];

		fprintf(f, "  dma 0x%" PRIx64 " +0x%" PRIx64 " %s %s", (uint64_t)it->m.dma,
			(uint64_t)it->m.size, kind_name(it->m.kind), dir_name(it->m.dir));
		if ((uint64_t)it->m.phys != PTWALK_DMA_PHYS_NONE)
			fprintf(f, " phys 0x%" PRIx64, (uint64_t)it->m.phys);
		fprintf(f, " now %s%s%s", dma_frame_name(it->frame),
			it->where[0] ? " " : "", it->where);
		if (it->m.flags & PTWALK_DMA_F_PINNED)
			fprintf(f, " pinned");
		if (it->m.pid)
			fprintf(f, " by %d (%.16s)", it->m.pid, it->m.comm);
		else
			fprintf(f, " outside task context");
		for (int k = 0; k < DMA_NR_FINDINGS; k++)
			if (it->findings & (1u << k))
				fprintf(f, " [%s]", dma_finding_name(k));
		fputc('\n', f);
	}
	for (int k = 0; k < DMA_NR_FINDINGS; k++)
		if (per[k])
			fprintf(f, "%s: %u (%s)\n", dma_finding_name(k), per[k],
				dma_finding_doc(k));
	fprintf(f, "%u finding%s\n", total, total == 1 ? "" : "s");
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

void dma_inventory_print_json(FILE *f, const struct dma_inventory *inv)
{
	unsigned int per[DMA_NR_FINDINGS];
	unsigned int total = dma_inventory_count(inv, per);

	fprintf(f, "{\"device\": ");
	json_string(f, inv->device);
	fprintf(f, ", \"driver\": ");
	if (inv->driver[0])
		json_string(f, inv->driver);
	else
		fprintf(f, "null");
	fprintf(f, ", \"live\": %u, \"capacity\": %u, \"overflow\": %" PRIu64
		", \"unmapped_unknown\": %" PRIu64 ", \"mappings\": [",
		inv->q->live, inv->q->capacity, (uint64_t)inv->q->overflow,
		(uint64_t)inv->q->unmapped_unknown);
	for (size_t i = 0; i < inv->n; i++) {
		const struct dma_item *it = &inv->items[i];
		int first = 1;

		fprintf(f, "%s{\"dma\": \"0x%" PRIx64 "\", \"size\": %" PRIu64
			", \"kind\": \"%s\", \"dir\": \"%s\", \"attrs\": \"0x%"
			PRIx64 "\", \"phys\": ", i ? ", " : "", (uint64_t)it->m.dma,
			(uint64_t)it->m.size, kind_name(it->m.kind), dir_name(it->m.dir),
			(uint64_t)it->m.attrs);
		if ((uint64_t)it->m.phys == PTWALK_DMA_PHYS_NONE)
			fprintf(f, "null");
		else
			fprintf(f, "\"0x%" PRIx64 "\"", (uint64_t)it->m.phys);
		fprintf(f, ", \"frame\": \"%s\", \"iomem\": ",
			dma_frame_name(it->frame));
		if (it->where[0])
			json_string(f, it->where);
		else
			fprintf(f, "null");
		fprintf(f, ", \"pinned\": %s, \"pid\": ",
			it->m.flags & PTWALK_DMA_F_PINNED ? "true" : "false");
		if (it->m.pid) {
			char comm[17] = "";

			for (int k = 0; k < 16 && it->m.comm[k]; k++)
				comm[k] = it->m.comm[k];
			fprintf(f, "%d, \"comm\": ", it->m.pid);
			json_string(f, comm);
		} else {
			fprintf(f, "null, \"comm\": null");
		}
		fprintf(f, ", \"map_ns\": %" PRIu64 ", \"findings\": [",
			(uint64_t)it->m.map_ns);
		for (int k = 0; k < DMA_NR_FINDINGS; k++)
			if (it->findings & (1u << k)) {
				fprintf(f, "%s\"%s\"", first ? "" : ", ",
					dma_finding_name(k));
				first = 0;
			}
		fprintf(f, "]}");
	}
	fprintf(f, "], \"findings\": {");
	for (int k = 0; k < DMA_NR_FINDINGS; k++)
		fprintf(f, "%s\"%s\": %u", k ? ", " : "", dma_finding_name(k),
			per[k]);
	fprintf(f, "}, \"total_findings\": %u}\n", total);
}
