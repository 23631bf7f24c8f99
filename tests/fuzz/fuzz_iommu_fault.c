// SPDX-License-Identifier: GPL-2.0
/*
 * Pasted IOMMU fault text (parse/fault/ through iommu_fault_feed(), and
 * iommu_log_clean() alone), split at newlines and fed to one decoder,
 * then its end.  Oracles: every answer is one of the enum's; a fault's
 * strings are terminated inside their arrays, its driver one of the
 * table's, its enums in range, a VT-d fault's PCI name in the normalised
 * form and a reason; an undecoded line names its driver (or "unknown")
 * and what was not read; the message given with an answer lies in the
 * decoder's bounds; the cleaning leaves a rest inside the line and
 * shorter than it; a VT-d fault printed back in 5.15's format reads
 * back the same; the collapse counts every fault once, and a group's
 * first time is not after its last.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <inttypes.h>
#include "fuzz.h"
#include "parse/iommu_fault.h"

#define MAX_FAULTS 64

struct seen {
	struct iommu_fault faults[MAX_FAULTS];
	size_t n;
	uint64_t lines;
};

static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

/* "%04x:%02x:%02x.%x", as the parser writes a PCI name. */
static bool normalised_pci(const char *d)
{
	unsigned int dom, bus, slot, fn;
	char end;

	return strlen(d) == 12 &&
	       sscanf(d, "%4x:%2x:%2x.%1x%c", &dom, &bus, &slot, &fn, &end) == 4 &&
	       slot <= 0x1f && fn <= 7;
}

static bool a_driver(const char *name)
{
	for (size_t i = 0; i < iommu_fault_drivers(); i++)
		if (!strcmp(iommu_fault_driver_name(i), name))
			return true;
	return false;
}

static void check_fault(const struct iommu_fault *f)
{
	FUZZ_CHECK(terminated(f->device, sizeof(f->device)) &&
		   terminated(f->iommu_dev, sizeof(f->iommu_dev)) &&
		   terminated(f->master, sizeof(f->master)) &&
		   terminated(f->wall, sizeof(f->wall)) &&
		   terminated(f->reason, sizeof(f->reason)), "unterminated");
	FUZZ_CHECK(f->iommu && a_driver(f->iommu), "driver '%s'",
		   f->iommu ? f->iommu : "(null)");
	FUZZ_CHECK(f->format && *f->format, "%s: no format", f->iommu);
	FUZZ_CHECK(f->access <= IOMMU_ACCESS_EXEC && f->cls <= IOMMU_CLASS_HARDWARE,
		   "access %d class %d", f->access, f->cls);
	FUZZ_CHECK(strcmp(iommu_class_name(f->cls), "?") &&
		   strcmp(iommu_access_name(f->access), "?"), "unnamed enum");
	FUZZ_CHECK(f->prio >= -1 && f->prio <= 7, "prio %d", f->prio);
	if (!strcmp(f->iommu, "vt-d")) {
		FUZZ_CHECK(normalised_pci(f->device), "device '%s'", f->device);
		FUZZ_CHECK(f->reason[0] && f->has_code && f->code <= 0xff,
			   "VT-d reason");
	}
	if (!strcmp(f->iommu, "smmu-v3") || !strcmp(f->iommu, "virtio-iommu"))
		FUZZ_CHECK(f->iommu_dev[0] && f->has_sid, "no IOMMU or ID");
	/* the embedded IOMMUs' faults come from "DRIVER DEVICE: " lines */
	if (strcmp(f->iommu, "vt-d") && strcmp(f->iommu, "amd-vi") &&
	    strcmp(f->iommu, "smmu-v3") && strcmp(f->iommu, "virtio-iommu") &&
	    strcmp(f->iommu, "riscv-iommu"))
		FUZZ_CHECK(f->iommu_dev[0] && f->reason[0], "%s: no IOMMU or reason",
			   f->iommu);
}

/* A VT-d DMA fault without PASID, printed as 5.15's dmar_fault_do_one(). */
static void check_vtd_reprint(const struct iommu_fault *f)
{
	char line[512];
	struct iommu_fault g;

	if (strcmp(f->iommu, "vt-d") || !f->has_iova || f->has_pasid ||
	    f->access == IOMMU_ACCESS_UNKNOWN || strpbrk(f->reason, "\\[`=|>\t") ||
	    f->reason[0] == ' ' || strstr(f->reason, "  "))
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

static int answer(void *arg, enum iommu_line r, const struct iommu_fault *f,
		  const char *msg, uint64_t line)
{
	struct seen *s = arg;

	FUZZ_CHECK(r >= IOMMU_LINE_MALFORMED && r <= IOMMU_LINE_KNOWN &&
		   r != IOMMU_LINE_OTHER, "answer %d", r);
	FUZZ_CHECK(msg && strlen(msg) < IOMMU_LOG_LINE_MAX, "message");
	FUZZ_CHECK(line >= 1 && line <= s->lines, "line %" PRIu64 " of %" PRIu64,
		   line, s->lines);
	if (r == IOMMU_LINE_MALFORMED) {
		FUZZ_CHECK(f->iommu && (a_driver(f->iommu) ||
					!strcmp(f->iommu, "unknown")) &&
			   f->reason[0] && terminated(f->reason, sizeof(f->reason)),
			   "undecoded without driver or words");
		return 0;
	}
	if (r != IOMMU_LINE_FAULT && r != IOMMU_LINE_DETAIL)
		return 0;
	check_fault(f);
	check_vtd_reprint(f);
	if (r == IOMMU_LINE_FAULT && s->n < MAX_FAULTS)
		s->faults[s->n++] = *f;
	return 0;
}

/* The cleaning alone: a message, and a rest inside what is left. */
static void check_clean(const char *p, size_t len)
{
	struct iommu_log_line l;
	const char *rest;
	size_t rest_len;

	if (!iommu_log_clean(p, len, &l, &rest, &rest_len))
		return;
	FUZZ_CHECK(terminated(l.msg, sizeof(l.msg)) &&
		   terminated(l.wall, sizeof(l.wall)) &&
		   terminated(l.host, sizeof(l.host)), "unterminated");
	FUZZ_CHECK(!rest || (rest > p && rest + rest_len <= p + len &&
			     rest_len < len), "rest outside the line");
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
	static struct iommu_fault_decoder d;
	static struct seen s;
	const char *p = (const char *)data, *end = p + size;

	iommu_fault_decoder_init(&d);
	s.n = 0;
	s.lines = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);

		check_clean(p, len);
		s.lines++;
		FUZZ_CHECK(!iommu_fault_feed(&d, p, len, answer, &s), "feed");
		p += len + 1;
	}
	FUZZ_CHECK(!iommu_fault_finish(&d, answer, &s), "finish");
	FUZZ_CHECK(!d.holding, "a message still held after the end");
	check_collapse(s.faults, s.n, size ? 1ULL << (data[0] % 24) : 4096);
	return 0;
}
