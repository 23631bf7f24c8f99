// SPDX-License-Identifier: GPL-2.0
/*
 * IOMMU fault lines of the kernel log (iommu_fault_decode,
 * iommu_fault_parse_line, iommu_log_split, the collapse).  The input is
 * log text, split at newlines and fed line by line to one decoder.
 * Oracles: every answer is one of the enum's; a fault's strings are
 * terminated inside their arrays, its enums in range, its PCI name in
 * the normalised form; a one-line format reads the same with and without
 * the decoder; a VT-d fault printed back in 6.1's format reads back the
 * same; the collapse counts every fault once, in a group or as dropped,
 * and a group's first time is not after its last; no more SMMU events
 * are cut short than lines were taken as their parts.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <inttypes.h>
#include "fuzz.h"
#include "parse/iommu_fault.h"

#define MAX_FAULTS 64

static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

/* "%04x:%02x:%02x.%x", as the parser writes a PCI name. */
static bool normalised_pci(const char *d)
{
	unsigned int dom, bus, slot, fn;
	char end;

	return strlen(d) >= 12 &&
	       sscanf(d, "%x:%2x:%2x.%1x%c", &dom, &bus, &slot, &fn, &end) == 4 &&
	       slot <= 0x1f && fn <= 7;
}

static void check_fault(const struct iommu_fault *f)
{
	FUZZ_CHECK(terminated(f->device, sizeof(f->device)) &&
		   terminated(f->iommu_dev, sizeof(f->iommu_dev)) &&
		   terminated(f->reason, sizeof(f->reason)), "unterminated");
	FUZZ_CHECK(f->iommu > IOMMU_KIND_NONE && f->iommu <= IOMMU_KIND_VIRTIO,
		   "kind %d", f->iommu);
	FUZZ_CHECK(f->access <= IOMMU_ACCESS_READ_WRITE && f->cls <= IOMMU_CLASS_HARDWARE,
		   "access %d class %d", f->access, f->cls);
	FUZZ_CHECK(strcmp(iommu_kind_name(f->iommu), "?") &&
		   strcmp(iommu_class_name(f->cls), "?") &&
		   strcmp(iommu_access_name(f->access), "?"), "unnamed enum");
	FUZZ_CHECK(f->prio >= -1 && f->prio <= 7, "prio %d", f->prio);
	if (f->iommu == IOMMU_KIND_VTD || (f->iommu == IOMMU_KIND_AMD_VI && f->device[0]))
		FUZZ_CHECK(normalised_pci(f->device), "device '%s'", f->device);
	if (f->iommu == IOMMU_KIND_VTD)
		FUZZ_CHECK(f->reason[0] && f->code <= 0xff, "VT-d reason");
	if (f->iommu == IOMMU_KIND_SMMU_V3 || f->iommu == IOMMU_KIND_VIRTIO)
		FUZZ_CHECK(f->iommu_dev[0] && f->has_sid, "no SMMU or ID");
}

static bool same_fault(const struct iommu_fault *a, const struct iommu_fault *b)
{
	return a->iommu == b->iommu && a->cls == b->cls && a->access == b->access &&
	       !strcmp(a->device, b->device) && !strcmp(a->iommu_dev, b->iommu_dev) &&
	       !strcmp(a->reason, b->reason) && a->has_iova == b->has_iova &&
	       a->iova == b->iova && a->has_pasid == b->has_pasid &&
	       a->pasid == b->pasid && a->has_sid == b->has_sid && a->sid == b->sid &&
	       a->code == b->code && a->has_time == b->has_time &&
	       a->time_us == b->time_us && a->prio == b->prio;
}

/* A VT-d DMA fault without PASID, printed as 6.1's dmar_fault_do_one(). */
static void check_vtd_reprint(const struct iommu_fault *f)
{
	char line[512];
	struct iommu_fault g;

	if (f->iommu != IOMMU_KIND_VTD || !f->has_iova || f->has_pasid ||
	    f->reason[0] == ' ' || f->reason[0] == '\t' || strchr(f->reason, '\\'))
		return;
	snprintf(line, sizeof(line), "DMAR: [DMA %s NO_PASID] Request device [%s] fault addr 0x%" PRIx64 " [fault reason 0x%02x] %s",
		 f->access == IOMMU_ACCESS_READ ? "Read" : "Write", f->device,
		 f->iova, f->code, f->reason);
	FUZZ_CHECK(iommu_fault_parse_line(line, strlen(line), &g) == IOMMU_LINE_FAULT,
		   "printed back, not a fault: %s", line);
	FUZZ_CHECK(!strcmp(g.device, f->device) && g.iova == f->iova &&
		   g.access == f->access && g.code == f->code &&
		   !strcmp(g.reason, f->reason), "printed back, differs: %s", line);
}

static void check_one_line(const char *line, size_t len, enum iommu_line r,
			   const struct iommu_fault *f)
{
	struct iommu_fault g;
	enum iommu_line s = iommu_fault_parse_line(line, len, &g);

	FUZZ_CHECK(s >= IOMMU_LINE_MALFORMED && s <= IOMMU_LINE_PART, "stateless %d", s);
	if (r == IOMMU_LINE_FAULT && f->iommu != IOMMU_KIND_SMMU_V3) {
		FUZZ_CHECK(s == IOMMU_LINE_FAULT && same_fault(f, &g),
			   "decoder and stateless parser differ");
		check_vtd_reprint(f);
	}
}

static void check_collapse(const struct iommu_fault *faults, size_t n,
			   uint64_t page_size)
{
	struct iommu_fault_group g[8];
	size_t dropped, groups = iommu_fault_collapse(faults, n, page_size, g, 8, &dropped);
	uint64_t total = dropped;

	FUZZ_CHECK(groups <= 8, "%zu groups", groups);
	for (size_t i = 0; i < groups; i++) {
		total += g[i].count;
		FUZZ_CHECK(g[i].count >= 1, "empty group");
		FUZZ_CHECK(!g[i].first.has_time || g[i].first_us <= g[i].last_us,
			   "group %zu: first after last", i);
	}
	FUZZ_CHECK(total == n, "collapse counted %" PRIu64 " of %zu", total, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iommu_fault_decoder d;
	struct iommu_fault faults[MAX_FAULTS], f;
	size_t n = 0, parts = 0;
	const char *p = (const char *)data, *end = p + size;

	iommu_fault_decoder_init(&d);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		enum iommu_line r = iommu_fault_decode(&d, p, len, &f);

		FUZZ_CHECK(r >= IOMMU_LINE_MALFORMED && r <= IOMMU_LINE_DETAIL, "answer %d", r);
		parts += r == IOMMU_LINE_PART;
		if (r == IOMMU_LINE_FAULT || r == IOMMU_LINE_DETAIL)
			check_fault(&f);
		if (r == IOMMU_LINE_FAULT && n < MAX_FAULTS)
			faults[n++] = f;
		check_one_line(p, len, r, &f);
		p += len + 1;
	}
	/* an event is cut short once at most, and its header was a part */
	FUZZ_CHECK(d.cut_short <= parts, "%" PRIu64 " cut short of %zu parts",
		   d.cut_short, parts);
	check_collapse(faults, n, size ? 1ULL << (data[0] % 24) : 4096);
	return 0;
}
