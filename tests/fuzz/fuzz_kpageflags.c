// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/kpageflags words (kpf_format, kpf_check and the rule names).  The
 * input is a word, then what ptwalk said about the page.  Oracles: the
 * names printed read back to the shown bits (include/uapi/linux/
 * kernel-page-flags.h's numbers), cut safely at any buffer size; the
 * rules broken are rules, each named and worded; a frame kpageflags has
 * no page for breaks the NOPAGE rule alone, and only in System RAM; a
 * frame the buddy allocator holds always breaks the FREE rule.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdbool.h>
#include "fuzz.h"
#include "engine/kpageflags.h"

/* The uapi numbers, written out again: the bits the report names. */
static const struct {
	const char *name;
	unsigned int bit;
} uapi[] = {
	{ "slab", 7 }, { "buddy", 10 }, { "mmap", 11 }, { "anon", 12 },
	{ "swapcache", 13 }, { "swapbacked", 14 }, { "compound_head", 15 },
	{ "compound_tail", 16 }, { "huge", 17 }, { "unevictable", 18 },
	{ "hwpoison", 19 }, { "nopage", 20 }, { "ksm", 21 }, { "thp", 22 },
	{ "offline", 23 }, { "zero_page", 24 }, { "pgtable", 26 },
	{ "reserved", 32 }, { "mlocked", 33 },
};

static uint64_t shown_mask(void)
{
	uint64_t m = 0;

	for (size_t i = 0; i < sizeof(uapi) / sizeof(uapi[0]); i++)
		m |= 1ULL << uapi[i].bit;
	return m;
}

static void check_format(uint64_t kpf)
{
	char full[1024], cut[64], *save = NULL, *tok;
	uint64_t bits = 0;

	kpf_format(full, sizeof(full), kpf);
	FUZZ_CHECK(KPF_SHOWN == shown_mask(), "KPF_SHOWN 0x%" PRIx64
		   " is not the uapi bits 0x%" PRIx64, (uint64_t)KPF_SHOWN,
		   shown_mask());
	for (size_t size = 0; size <= sizeof(cut); size++) {
		memset(cut, 'X', sizeof(cut));
		kpf_format(cut, size, kpf);
		if (!size)
			FUZZ_CHECK(cut[0] == 'X', "wrote into an empty buffer");
		else
			FUZZ_CHECK(memchr(cut, '\0', size) &&
				   !strncmp(cut, full, strlen(cut)),
				   "cut to %zu: '%s' of '%s'", size, cut, full);
	}
	for (tok = strtok_r(full, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(uapi) / sizeof(uapi[0]) &&
			    strcmp(uapi[i].name, tok); i++)
			;
		FUZZ_CHECK(i < sizeof(uapi) / sizeof(uapi[0]) &&
			   !(bits >> uapi[i].bit & 1), "name '%s'", tok);
		bits |= 1ULL << uapi[i].bit;
	}
	FUZZ_CHECK(bits == (kpf & shown_mask()), "0x%" PRIx64 " printed as 0x%"
		   PRIx64, kpf, bits);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint64_t kpf = fuzz_u64(&in);
	struct kpf_expect e = {
		.walk_flags = (uint32_t)fuzz_uint(&in, 4),
		.vm_flags = fuzz_u64(&in),
	};
	uint8_t bits = fuzz_u8(&in);
	unsigned int broken;

	e.level = bits & 3;
	e.leaf_head = bits & 4;
	e.system_ram = bits & 8;
	check_format(kpf);
	for (unsigned int b = 0; b < 256; b++)
		FUZZ_CHECK(!kpf_bit_name(b) == (b > KPF_B_ARCH_2 ||
						(b > KPF_B_PGTABLE && b < KPF_B_RESERVED)),
			   "bit %u named '%s'", b, kpf_bit_name(b));
	broken = kpf_check(&e, kpf);
	FUZZ_CHECK(broken < 1U << NR_KPF_RULES, "rules 0x%x", broken);
	if (kpf & KPF(NOPAGE))
		FUZZ_CHECK(broken == (e.system_ram ? 1U << KPF_RULE_NOPAGE : 0),
			   "nopage: rules 0x%x", broken);
	else if (kpf & KPF(BUDDY))
		FUZZ_CHECK(broken & 1U << KPF_RULE_FREE, "buddy, not free");
	if (!broken) {
		FUZZ_CHECK(kpf_first_rule(broken) == NR_KPF_RULES, "first of none");
		return 0;
	}
	FUZZ_CHECK(broken >> kpf_first_rule(broken) & 1 &&
		   !(broken & ((1U << kpf_first_rule(broken)) - 1)),
		   "first rule of 0x%x", broken);
	for (unsigned int r = 0; r < NR_KPF_RULES; r++)
		if (broken >> r & 1)
			FUZZ_CHECK(strcmp(kpf_rule_name(r), "?") &&
				   strlen(kpf_rule_text(r)) > 10 &&
				   !strchr(kpf_rule_text(r), '\n'),
				   "rule %u unnamed", r);
	return 0;
}
