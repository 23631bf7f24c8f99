// SPDX-License-Identifier: GPL-2.0
/*
 * Rockchip: rk_iommu_irq() and log_iova() of drivers/iommu/rockchip-iommu.c,
 * the same text from the driver's first release (3.19) to the newest and
 * in Rockchip's BSP kernels, "rk_iommu NAME: " (dev_err):
 *   "Page fault at %pad of type %s"          (%s "read" or "write")
 *   "iova = %pad: dte_index: %#03x pte_index: %#03x page_offset: %#03x"
 *   "mmu_dte_addr: %pa dte@%pa: %#08x valid: %u pte@%pa: %#08x valid: %u page@%pa flags: %#03x"
 *   "Page fault while iommu not attached to domain?"
 *   "BUS_ERROR occurred at %pad"
 *   "unexpected int_status: %#08x"
 * The third line tells an unmapped IOVA (a directory or page table entry
 * not valid) from a forbidden access (both valid).
 */
#include <string.h>
#include "parse/fault/fault_driver.h"

#define RK "rockchip-iommu"
#define RK_FORMAT "3.19+"

/* The last fault, for the lines log_iova() prints after it. */
struct rk_state {
	struct iommu_fault last;
	bool has_last;
};

/* "iova = %pad: dte_index: %#03x pte_index: %#03x page_offset: %#03x" */
static enum iommu_line rk_iova_line(struct rk_state *s, const char *p,
				    struct iommu_fault *f)
{
	uint64_t iova, dte, pte, off;

	p = fault_lit(fault_hex0x(p, &iova), ": dte_index: ");
	p = fault_lit(fault_hash_x(p, &dte), " pte_index: ");
	p = fault_lit(fault_hash_x(p, &pte), " page_offset: ");
	p = fault_hash_x(p, &off);
	if (!p || *p)
		return fault_malformed(f, RK, RK_FORMAT,
				       "an \"iova = \" line not \"iova = A: dte_index: N pte_index: N page_offset: N\" (cut short?)");
	(void)s;
	return IOMMU_LINE_KNOWN;	/* the indexes of the address already had */
}

/* "mmu_dte_addr: ... dte@A: V valid: N pte@A: V valid: N page@A flags: F" */
static enum iommu_line rk_dte_line(struct rk_state *s, const char *p,
				   struct iommu_fault *f)
{
	uint64_t dte_addr, a, dte, dv, pte, pv, page, flags;

	p = fault_lit(fault_hex0x(p, &dte_addr), " dte@");
	p = fault_lit(fault_hex0x(p, &a), ": ");
	p = fault_lit(fault_hash_x(p, &dte), " valid: ");
	p = fault_lit(fault_dec(p, &dv), " pte@");
	p = fault_lit(fault_hex0x(p, &a), ": ");
	p = fault_lit(fault_hash_x(p, &pte), " valid: ");
	p = fault_lit(fault_dec(p, &pv), " page@");
	p = fault_lit(fault_hex0x(p, &page), " flags: ");
	p = fault_hash_x(p, &flags);
	if (!p || *p || dv > 1 || pv > 1)
		return fault_malformed(f, RK, RK_FORMAT,
				       "an \"mmu_dte_addr:\" line not \"... dte@A: V valid: N pte@A: V valid: N page@A flags: F\" (cut short?)");
	if (!s->has_last || s->last.cls != IOMMU_CLASS_PAGE)
		return IOMMU_LINE_KNOWN;
	s->last.cls = dv && pv ? IOMMU_CLASS_PERMISSION : IOMMU_CLASS_UNMAPPED;
	fault_set_reason(&s->last, !dv ? "page fault; directory entry not valid" :
			 !pv ? "page fault; page table entry not valid" :
			 "page fault; both entries valid");
	if (dv && pv && flags <= UINT32_MAX)
		s->last.flags = (uint32_t)flags, s->last.has_flags = true;
	*f = s->last;
	return IOMMU_LINE_DETAIL;
}

static enum iommu_line rk_fault(struct rk_state *s, struct iommu_fault *f)
{
	f->iommu = RK;
	f->format = RK_FORMAT;
	s->last = *f;
	s->has_last = true;
	return IOMMU_LINE_FAULT;
}

static enum iommu_line rk_decode(void *state, const char *msg,
				 struct iommu_fault *f)
{
	struct rk_state *s = state;
	const char *p = fault_dev_tag(msg, "rk_iommu", f->iommu_dev);
	const char *q;
	uint64_t v;

	if (!p)
		return IOMMU_LINE_OTHER;
	if ((q = fault_lit(p, "Page fault at "))) {
		q = fault_lit(fault_hex0x(q, &f->iova), " of type ");
		if (fault_lit(q, "read") && !q[4])
			f->access = IOMMU_ACCESS_READ;
		else if (fault_lit(q, "write") && !q[5])
			f->access = IOMMU_ACCESS_WRITE;
		else
			return fault_malformed(f, RK, RK_FORMAT,
					       "not \"Page fault at A of type read|write\"");
		f->has_iova = true;
		f->cls = IOMMU_CLASS_PAGE;
		fault_set_reason(f, "page fault");
		return rk_fault(s, f);
	}
	if ((q = fault_lit(p, "iova = ")))
		return rk_iova_line(s, q, f);
	if ((q = fault_lit(p, "mmu_dte_addr: ")))
		return rk_dte_line(s, q, f);
	if ((q = fault_lit(p, "BUS_ERROR occurred at "))) {
		q = fault_hex0x(q, &f->iova);
		if (!q || *q)
			return fault_malformed(f, RK, RK_FORMAT,
					       "not \"BUS_ERROR occurred at A\"");
		f->has_iova = true;
		f->cls = IOMMU_CLASS_HARDWARE;
		fault_set_reason(f, "bus error");
		return rk_fault(s, f);
	}
	if ((q = fault_lit(p, "unexpected int_status: "))) {
		q = fault_hash_x(q, &v);
		if (!q || *q || v > UINT32_MAX)
			return fault_malformed(f, RK, RK_FORMAT,
					       "not \"unexpected int_status: 0xN\"");
		f->code = (uint32_t)v, f->has_code = true;
		fault_set_reason(f, "unexpected interrupt status");
		return rk_fault(s, f);
	}
	if (fault_lit(p, "Page fault while iommu not attached to domain?"))
		return IOMMU_LINE_KNOWN;
	if (strstr(p, "fault"))
		return fault_malformed(f, RK, NULL,
				       "a rk_iommu fault line of no format known");
	f->iommu_dev[0] = '\0';
	return IOMMU_LINE_OTHER;
}

const struct fault_driver fault_driver_rockchip_iommu = {
	.name = RK,
	.source = "drivers/iommu/rockchip-iommu.c",
	.decode = rk_decode,
	.state_size = sizeof(struct rk_state),
};

_Static_assert(sizeof(struct rk_state) <= IOMMU_DRIVER_STATE_MAX, "rockchip: state too big");
