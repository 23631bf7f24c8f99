/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an IOMMU driver's decoder is, and the field readers they share.
 *
 * Adding a driver: one file parse/fault/NAME.c holding
 *
 *	const struct fault_driver fault_driver_NAME = {
 *		.name = "name",			(the "iommu" of the output)
 *		.source = "drivers/iommu/....c",	(where its printk()s are)
 *		.decode = NAME_decode,
 *		.state_size = sizeof(struct NAME_state),	(0: none)
 *		.pending = NAME_pending,	(NULL: no multi-line events)
 *	};
 *
 * its declaration below, and one row in parse/fault/fault_table.c
 * (before a driver whose tag its lines could hold).  Each format is a row
 * of the file's own table where it can be (vtd.c's vtd_formats[]: the
 * releases printing it, what it shows), the file's head quoting the
 * kernel's format strings and the releases that print them.  A state
 * gets "_Static_assert(sizeof(struct NAME_state) <=
 * IOMMU_DRIVER_STATE_MAX, ...)"; a driver keeping multi-line events
 * has pending() (state may also just keep the last fault for the lines
 * that complete it, as rockchip_iommu.c's).
 * Its tests: real lines with their source in tests/unit/test_fault_lines.c
 * (and tests/unit/data/fault_lines/NAME.txt, # expect: per block), seeds
 * in tests/fuzz/corpus/iommu_fault/; test_fault_lines.c's table_rows
 * checks the row.  A fault the decoder cannot tell apart from its own
 * kind of line (a status line, a ratelimit banner) answers KNOWN, not
 * OTHER: a line whose prefix names an IOMMU and which speaks of a fault
 * is otherwise said undecoded (driver "unknown").
 *
 * decode() gets one message: the kernel's text, with the log's header
 * and the paste's marks gone (parse/fault/fault_clean.c), NUL-terminated,
 * one line.  f comes with the header's fields (time, seq, prio, wall
 * clock) and the rest zero, f->iommu "" and f->format NULL.  It answers:
 *   IOMMU_LINE_OTHER      not this driver's (f is then restored; the
 *                         next row is asked);
 *   IOMMU_LINE_KNOWN      this driver's, no fault (a status line);
 *   IOMMU_LINE_FAULT      f is a fault: f->iommu set to .name, f->format
 *                         to the format's releases, every field the
 *                         line holds filled in and its has_ flag set;
 *   IOMMU_LINE_PART       a line of a multi-line event, kept in state;
 *   IOMMU_LINE_DETAIL     the driver's last fault, completed by this
 *                         line, in f;
 *   IOMMU_LINE_MALFORMED  this driver's fault line (its tag was seen)
 *                         that no format of it reads: f->iommu .name,
 *                         f->format the format tried (NULL: none of
 *                         them), f->reason what could not be read.
 * Never a guess: once a format's tag matched, any other difference is
 * MALFORMED.  state is the driver's own, state_size bytes, zeroed when
 * the decoder starts; pending() counts the events begun in it and never
 * finished (cut short by the input's end, or by another event of the
 * same device beginning).  No I/O, no allocation, no global state; any
 * byte string is read without reading past its NUL.
 */
#ifndef PTCOMPARE_PARSE_FAULT_DRIVER_H
#define PTCOMPARE_PARSE_FAULT_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "parse/iommu_fault.h"

struct fault_driver {
	const char *name;
	const char *source;
	enum iommu_line (*decode)(void *state, const char *msg,
				  struct iommu_fault *f);
	size_t state_size;
	unsigned int (*pending)(const void *state);
};

/* The table (parse/fault/fault_table.c), in the order asked. */
extern const struct fault_driver *const fault_drivers[];
extern const size_t fault_drivers_n;

extern const struct fault_driver fault_driver_vtd;
extern const struct fault_driver fault_driver_amd_vi;
extern const struct fault_driver fault_driver_smmu_v3;
extern const struct fault_driver fault_driver_virtio_iommu;
extern const struct fault_driver fault_driver_arm_smmu;
extern const struct fault_driver fault_driver_qcom_iommu;
extern const struct fault_driver fault_driver_riscv_iommu;
extern const struct fault_driver fault_driver_mtk_iommu;
extern const struct fault_driver fault_driver_rockchip_iommu;
extern const struct fault_driver fault_driver_ipmmu_vmsa;
extern const struct fault_driver fault_driver_apple_dart;
extern const struct fault_driver fault_driver_tegra_mc;
extern const struct fault_driver fault_driver_exynos_sysmmu;
extern const struct fault_driver fault_driver_sun50i_iommu;

/*
 * Field readers (parse/fault/fault_fields.c).  Each takes NULL for p and
 * gives NULL back, so a chain of them fails once, at its end; each
 * returns the character after what it read.
 */
/* p past the literal s, or NULL. */
const char *fault_lit(const char *p, const char *s);
/* hex digits (no "0x") into *v: NULL for none or > 64 bits */
const char *fault_hex(const char *p, uint64_t *v);
/* "0x" and hex digits */
const char *fault_hex0x(const char *p, uint64_t *v);
/* hex with or without "0x" */
const char *fault_hex_maybe0x(const char *p, uint64_t *v);
/* printf's "%#x": "0" for zero, "0x..." otherwise */
const char *fault_hash_x(const char *p, uint64_t *v);
/* hex (no "0x") that fits 32 bits */
const char *fault_hex32(const char *p, uint32_t *v);
/* decimal digits */
const char *fault_dec(const char *p, uint64_t *v);
/*
 * A PCI address, "DDDD:BB:DD.F", "BB:DD.F" (domain 0000), or 5.14
 * VT-d's "0xBB:0xDD.F": normalised to "%04x:%02x:%02x.%x".
 */
const char *fault_bdf(const char *p, char out[IOMMU_FAULT_NAME_MAX]);
/* The run of p up to one of stops (or the end) into out[size]. */
const char *fault_word(const char *p, const char *stops, char *out,
		       size_t size);
/* s into f->reason, cut to fit, trailing blanks and control bytes off. */
void fault_set_reason(struct iommu_fault *f, const char *s);
/* The same for a MALFORMED answer: driver, format, what was not read. */
enum iommu_line fault_malformed(struct iommu_fault *f, const char *driver,
				const char *format, const char *what);
/*
 * dev_printk()'s "DRIVER DEVICE: " anywhere in msg, driver given: the
 * device into out, and the text after ": "; NULL when msg has none.
 */
const char *fault_dev_tag(const char *msg, const char *driver,
			  char out[IOMMU_FAULT_NAME_MAX]);
/* The device of dev_printk()'s "DRIVER DEVICE: " just before at. */
bool fault_dev_prefix(const char *msg, const char *at, char *out,
		      size_t size);

/*
 * A device's slot in a driver's state, for drivers whose event comes in
 * several lines that other devices' lines may come between (arm_smmu,
 * smmu_v3): first member of each slot's struct.
 */
struct fault_slot {
	char name[IOMMU_FAULT_NAME_MAX];	/* "" when free */
	uint64_t used;				/* tick of the last line */
};

/*
 * Among n slots of size bytes each, name's, its use stamped ++*tick and
 * *found true; else the least recently used, *found false and the slot
 * untouched, for the caller to empty and name.
 */
void *fault_slot_find(void *slots, size_t n, size_t size, const char *name,
		      uint64_t *tick, bool *found);

#endif /* PTCOMPARE_PARSE_FAULT_DRIVER_H */
