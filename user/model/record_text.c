// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include "model/record_text.h"
#include "module/ptwalk_names.h"
#include "parse/record.h"

/* snprintf that keeps len within size and tells how far it got. */
static size_t append(char *buf, size_t size, size_t len, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5)));

static size_t append(char *buf, size_t size, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (len >= size)
		return len;
	va_start(ap, fmt);
	n = vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return len;
	return len + (size_t)n >= size ? size - 1 : len + (size_t)n;
}

size_t format_flag_names(char *buf, size_t size, uint64_t bits,
			 const char *(*name)(unsigned int))
{
	size_t len = 0;
	unsigned int bit;

	if (size)
		buf[0] = '\0';
	for (bit = 0; bit < 64; bit++) {
		const char *n = name(bit);

		if ((bits >> bit & 1) && n)
			len = append(buf, size, len, "%s%s", len ? "," : "", n);
	}
	if (!len)
		len = append(buf, size, len, "-");
	return len;
}

size_t format_record(char *buf, size_t size, const struct ptwalk_record *r)
{
	size_t len;

	len = append(buf, size, 0, "0x%012" PRIx64 "-0x%012" PRIx64 " %8" PRIu64
		     " %-4s %-9s ", (uint64_t)r->start, ptwalk_record_end(r),
		     (uint64_t)r->nr_pages, ptwalk_level_name(r->level),
		     ptwalk_kind_name(r->kind));
	if (r->pfn != PTWALK_PFN_NONE)
		len = append(buf, size, len, "pfn=0x%" PRIx64 " ",
			     (uint64_t)r->pfn);
	else if (r->kind != PTWALK_KIND_NONE)
		len = append(buf, size, len, "type=%u offset=0x%" PRIx64 " ",
			     r->swap_type, (uint64_t)r->swap_offset);
	else
		len = append(buf, size, len, "- ");
	if (len < size)
		len += format_flag_names(buf + len, size - len, r->flags,
					 ptwalk_flag_name);
	len = append(buf, size, len, " vm=");
	if (len < size)
		len += format_flag_names(buf + len, size - len, r->vm_flags,
					 ptwalk_vm_flag_name);
	return len;
}
