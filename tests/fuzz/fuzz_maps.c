// SPDX-License-Identifier: GPL-2.0
/*
 * One line of /proc/PID/maps (maps_parse_line, and vtop's use of it).
 * Oracles: a second, strict reader of the kernel's format
 * (show_map_vma(): "%08lx-%08lx %c%c%c%c %08llx %02x:%02x %lu " padding
 * name) must accept exactly the lines the parser accepts, with the same
 * fields; a parsed line printed back in that format parses to the same
 * entry; vtop finds the VMA for its first and last byte only.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <inttypes.h>
#include "fuzz.h"
#include "parse/maps.h"
#include "engine/vtop.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Digits of base 16 or 10 up to stop (or to the end of the line when stop
 * is ' ' and may_end); false on anything else or above max.
 */
static bool number(const char **p, int base, char stop, bool may_end,
		   uint64_t max, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int d;

	for (; (d = base == 16 ? hexval(*s) : (*s >= '0' && *s <= '9' ?
						*s - '0' : -1)) >= 0; s++) {
		if (v > (max - (uint64_t)d) / (uint64_t)base)
			return false;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (s == *p || (*s != stop && !(may_end && !*s)))
		return false;
	*out = v;
	*p = *s ? s + 1 : s;
	return true;
}

/* The reference reader; line without its newline. */
static bool reference(const char *line, struct maps_entry *e)
{
	const char *p = line;
	uint64_t major, minor;

	memset(e, 0, sizeof(*e));
	if (!number(&p, 16, '-', false, UINT64_MAX, &e->start) ||
	    !number(&p, 16, ' ', false, UINT64_MAX, &e->end) || e->start >= e->end)
		return false;
	if ((p[0] != 'r' && p[0] != '-') || (p[1] != 'w' && p[1] != '-') ||
	    (p[2] != 'x' && p[2] != '-') || (p[3] != 'p' && p[3] != 's') ||
	    p[4] != ' ')
		return false;
	memcpy(e->perms, p, 4);
	p += 5;
	if (!number(&p, 16, ' ', false, UINT64_MAX, &e->offset) ||
	    !number(&p, 16, ':', false, UINT32_MAX, &major) ||
	    !number(&p, 16, ' ', false, UINT32_MAX, &minor))
		return false;
	e->dev_major = (unsigned int)major;
	e->dev_minor = (unsigned int)minor;
	if (!number(&p, 10, ' ', true, UINT64_MAX, &e->inode))
		return false;
	while (*p == ' ')
		p++;
	e->name = p;
	return true;
}

static void same_entry(const struct maps_entry *a, const struct maps_entry *b,
		       const char *what)
{
	FUZZ_CHECK(a->start == b->start && a->end == b->end &&
		   a->offset == b->offset && a->inode == b->inode &&
		   a->dev_major == b->dev_major && a->dev_minor == b->dev_minor &&
		   !strcmp(a->perms, b->perms) && !strcmp(a->name, b->name),
		   "%s: 0x%" PRIx64 "-0x%" PRIx64 " %s 0x%" PRIx64
		   " %x:%x %" PRIu64 " '%s' vs 0x%" PRIx64 "-0x%" PRIx64
		   " %s 0x%" PRIx64 " %x:%x %" PRIu64 " '%s'", what,
		   a->start, a->end, a->perms, a->offset, a->dev_major,
		   a->dev_minor, a->inode, a->name, b->start, b->end, b->perms,
		   b->offset, b->dev_major, b->dev_minor, b->inode, b->name);
}

static void check_vtop(const char *text, const struct maps_entry *e)
{
	static struct vtop_vma vma;
	const uint64_t inside[] = { e->start, e->end - 1 };
	const uint64_t outside[] = { e->end, e->start - 1 };
	char *copy;

	for (size_t i = 0; i < 2; i++) {
		copy = strdup(text);
		memset(&vma, 0, sizeof(vma));
		FUZZ_CHECK(vtop_vma_from_line(copy, inside[i], &vma),
			   "vtop misses 0x%" PRIx64 " in its VMA", inside[i]);
		FUZZ_CHECK(vma.found && vma.start == e->start &&
			   vma.end == e->end && !strcmp(vma.perms, e->perms) &&
			   vma.deleted == e->deleted &&
			   !strncmp(vma.name, e->name, sizeof(vma.name) - 1) &&
			   strlen(vma.name) < sizeof(vma.name),
			   "vtop's VMA differs from the entry");
		free(copy);
		copy = strdup(text);
		if (outside[i] < e->start || outside[i] >= e->end)
			FUZZ_CHECK(!vtop_vma_from_line(copy, outside[i], &vma),
				   "vtop finds 0x%" PRIx64 " outside", outside[i]);
		free(copy);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = fuzz_string(data, size), *orig = strdup(line);
	char *again = NULL;
	struct maps_entry e, ref, e2;
	size_t len = strlen(orig), dl = strlen(" (deleted)");
	bool ok, ref_ok;

	if (len && orig[len - 1] == '\n')
		orig[--len] = '\0';
	ok = maps_parse_line(line, &e);
	ref_ok = reference(orig, &ref);
	FUZZ_CHECK(ok == ref_ok, "parser %s, reference %s: '%s'",
		   ok ? "accepts" : "rejects", ref_ok ? "accepts" : "rejects",
		   orig);
	if (!ok)
		goto out;
	same_entry(&e, &ref, "parser vs reference");
	FUZZ_CHECK(e.name >= line && e.name <= line + len && *e.name != ' ',
		   "name outside the line or starting with a space");
	FUZZ_CHECK(e.deleted == (strlen(e.name) > dl &&
				 !strcmp(e.name + strlen(e.name) - dl,
					 " (deleted)")),
		   "deleted flag wrong for '%s'", e.name);
	/* printed back as the kernel prints it, padding and newline included */
	if (asprintf(&again, "%08" PRIx64 "-%08" PRIx64 " %s %08" PRIx64
		     " %02x:%02x %" PRIu64 "%s%s\n", e.start, e.end, e.perms,
		     e.offset, e.dev_major, e.dev_minor, e.inode,
		     *e.name ? "                          " : " ", e.name) < 0)
		abort();
	check_vtop(again, &e);
	FUZZ_CHECK(maps_parse_line(again, &e2), "printed back, rejected: %s",
		   again);
	same_entry(&e, &e2, "round trip");
	FUZZ_CHECK(e2.deleted == e.deleted, "round trip: deleted");
out:
	free(again);
	free(orig);
	free(line);
	return 0;
}
