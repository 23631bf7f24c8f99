// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/mm.h>
#include "ptwalk_names.h"
#include "text.h"

size_t ptwalk_format_usage(char *buf, size_t size)
{
	return scnprintf(buf, size,
		"# write \"PID [START END]\" to this file, then read it back on the same open file:\n"
		"#   exec 3<>/sys/kernel/debug/ptwalk/text; echo $PID >&3; cat <&3; exec 3>&-\n");
}

size_t ptwalk_format_header(char *buf, size_t size, pid_t pid, u64 start,
			    u64 end)
{
	return scnprintf(buf, size,
		"# ptwalk pid %d range 0x%llx-0x%llx (ranges outside VMAs omitted)\n"
		"# start-end pages level kind frame flags vm\n",
		pid, start, end);
}

/* Appends ",name" for every set bit that has one; "-" when none. */
static size_t format_bits(char *buf, size_t size, u64 bits,
			  const char *(*name)(unsigned int))
{
	size_t len = 0;
	unsigned int bit;

	for (bit = 0; bit < 64; bit++) {
		const char *n = name(bit);

		if (!(bits & (1ULL << bit)) || !n)
			continue;
		len += scnprintf(buf + len, size - len, "%s%s",
				 len ? "," : "", n);
	}
	if (!len)
		len = scnprintf(buf, size, "-");
	return len;
}

size_t ptwalk_format_record(char *buf, size_t size,
			    const struct ptwalk_record *r)
{
	size_t len;

	len = scnprintf(buf, size, "0x%012llx-0x%012llx %8llu %-4s %-9s ",
			r->start, r->start + (r->nr_pages << PAGE_SHIFT),
			r->nr_pages, ptwalk_level_name(r->level),
			ptwalk_kind_name(r->kind));
	if (r->pfn != PTWALK_PFN_NONE)
		len += scnprintf(buf + len, size - len, "pfn=0x%llx ", r->pfn);
	else if (r->kind != PTWALK_KIND_NONE)
		len += scnprintf(buf + len, size - len, "type=%u offset=0x%llx ",
				 r->swap_type, r->swap_offset);
	else
		len += scnprintf(buf + len, size - len, "- ");
	len += format_bits(buf + len, size - len, r->flags, ptwalk_flag_name);
	len += scnprintf(buf + len, size - len, " vm=");
	len += format_bits(buf + len, size - len, r->vm_flags,
			   ptwalk_vm_flag_name);
	len += scnprintf(buf + len, size - len, "\n");
	return len;
}
