// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/iomem (iomem_parse_string, iomem_parse_file, the lookups).
 * Oracles: the parsed tree is well formed (parents before children, the
 * order array a permutation grouping each entry's children sorted by
 * start); a lookup returns an entry holding the address; the path of an
 * entry fits any buffer and ends with its name; the tree printed back as
 * r_show() prints it parses to the same tree; the file reader agrees with
 * the string parser, NUL bytes aside; every rejection says which line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include "fuzz.h"
#include "parse/iomem.h"

#define MAX_PRINTED_DEPTH 5	/* r_show()'s MAX_IORES_LEVEL */

static size_t depth_of(const struct iomem *m, size_t i)
{
	size_t d = 0;

	for (; m->e[i].parent != IOMEM_NONE; i = m->e[i].parent)
		d++;
	return d;
}

static void check_tree(const struct iomem *m)
{
	bool *seen = calloc(m->n + 1, 1);
	size_t placed = m->nr_top;
	bool all_zero = true;

	for (size_t i = 0; i < m->n; i++) {
		const struct iomem_entry *e = &m->e[i];

		FUZZ_CHECK(e->start <= e->end, "entry %zu ends before it starts", i);
		FUZZ_CHECK(e->parent == IOMEM_NONE || e->parent < i,
			   "entry %zu has parent %zu", i, e->parent);
		FUZZ_CHECK(e->name && !strchr(e->name, '\n'), "entry %zu name", i);
		all_zero = all_zero && !e->start && !e->end;
		placed += e->nr_kids;
	}
	FUZZ_CHECK(m->zeroed == (m->n && all_zero), "zeroed flag");
	FUZZ_CHECK(placed == m->n, "top level and children count %zu of %zu",
		   placed, m->n);
	for (size_t g = 0; g <= m->n; g++) {
		size_t base = g == m->n ? 0 : m->e[g].kids;
		size_t cnt = g == m->n ? m->nr_top : m->e[g].nr_kids;
		size_t parent = g == m->n ? IOMEM_NONE : g;

		for (size_t k = 0; k < cnt; k++) {
			size_t i = m->order[base + k];

			FUZZ_CHECK(i < m->n && !seen[i], "order: %zu twice", i);
			seen[i] = true;
			FUZZ_CHECK(m->e[i].parent == parent, "entry %zu in group %zu",
				   i, g);
			FUZZ_CHECK(!k || m->e[m->order[base + k - 1]].start <=
					 m->e[i].start, "group %zu unsorted", g);
		}
	}
	free(seen);
}

/* iomem_find() by a linear scan of each level: the last entry starting at or below. */
static size_t find_slowly(const struct iomem *m, uint64_t addr)
{
	const size_t *group = m->order;
	size_t cnt = m->nr_top, found = IOMEM_NONE;

	for (;;) {
		size_t last = IOMEM_NONE;

		for (size_t k = 0; k < cnt; k++)
			if (m->e[group[k]].start <= addr)
				last = group[k];
		if (last == IOMEM_NONE || addr > m->e[last].end)
			return found;
		found = last;
		group = m->order + m->e[found].kids;
		cnt = m->e[found].nr_kids;
	}
}

static void check_lookup(const struct iomem *m, uint64_t addr)
{
	size_t i = iomem_find(m, addr);
	char path[4096], small[16];

	if (m->zeroed) {
		FUZZ_CHECK(i == IOMEM_NONE, "zeroed text names 0x%" PRIx64, addr);
		return;
	}
	FUZZ_CHECK(i == find_slowly(m, addr), "0x%" PRIx64 ": found %zu, not %zu",
		   addr, i, find_slowly(m, addr));
	if (i == IOMEM_NONE) {
		FUZZ_CHECK(!*iomem_path(m, i, path, sizeof(path)) &&
			   !iomem_is_ram(m, i), "no entry, yet a name");
		return;
	}
	FUZZ_CHECK(i < m->n && m->e[i].start <= addr && addr <= m->e[i].end,
		   "0x%" PRIx64 " found in entry %zu [0x%" PRIx64 ", 0x%" PRIx64
		   "]", addr, i, m->e[i].start, m->e[i].end);
	iomem_path(m, i, path, sizeof(path));
	FUZZ_CHECK(strlen(path) < sizeof(path), "path unterminated");
	if (strlen(path) + 1 < sizeof(path)) {
		size_t pl = strlen(path), nl = strlen(m->e[i].name);

		FUZZ_CHECK(pl >= nl && !strcmp(path + pl - nl, m->e[i].name),
			   "path '%s' does not end with '%s'", path, m->e[i].name);
	}
	for (size_t size = 0; size <= sizeof(small); size++) {
		memset(small, 'X', sizeof(small));
		iomem_path(m, i, small, size);
		if (size)
			FUZZ_CHECK(memchr(small, '\0', size) &&
				   !strncmp(small, path, strlen(small)),
				   "path cut to %zu bytes", size);
		else
			FUZZ_CHECK(small[0] == 'X', "wrote into an empty buffer");
	}
	size_t top = i;

	while (m->e[top].parent != IOMEM_NONE)
		top = m->e[top].parent;
	FUZZ_CHECK(iomem_is_ram(m, i) == !strcmp(m->e[top].name, "System RAM"),
		   "is_ram");
}

/* The tree as the kernel prints it, depth capped as r_show() caps it. */
static char *print_tree(const struct iomem *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	for (size_t i = 0; i < m->n; i++) {
		size_t d = depth_of(m, i);

		if (d > MAX_PRINTED_DEPTH)
			d = MAX_PRINTED_DEPTH;
		fprintf(f, "%*s%08" PRIx64 "-%08" PRIx64 " : %s\n", (int)(2 * d),
			"", m->e[i].start, m->e[i].end, m->e[i].name);
	}
	fclose(f);
	return buf;
}

static void check_reprint(const struct iomem *m)
{
	char *text = print_tree(m), why[128] = "";
	struct iomem again;
	int err = iomem_parse_string(&again, text, why, sizeof(why));

	FUZZ_CHECK(!err, "printed back, rejected: %s", why);
	FUZZ_CHECK(again.n == m->n, "printed back: %zu entries, not %zu",
		   again.n, m->n);
	for (size_t i = 0; i < m->n; i++)
		FUZZ_CHECK(again.e[i].start == m->e[i].start &&
			   again.e[i].end == m->e[i].end &&
			   again.e[i].parent == m->e[i].parent &&
			   !strcmp(again.e[i].name, m->e[i].name),
			   "printed back: entry %zu differs", i);
	iomem_free(&again);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), why[128], fwhy[128];
	struct iomem m, fm;
	int err, ferr;
	FILE *f;

	memset(why, 'X', sizeof(why));
	why[sizeof(why) - 1] = '\0';
	err = iomem_parse_string(&m, text, why, sizeof(why));
	FUZZ_CHECK(err == 0 || err == -EINVAL, "parse returned %d", err);
	/* the file reader: the same answer, or a NUL byte reported */
	f = size ? fmemopen((void *)data, size, "r") : NULL;
	fwhy[0] = '\0';
	ferr = f ? iomem_parse_file(&fm, f, fwhy, sizeof(fwhy)) : err;
	if (f)
		fclose(f);
	if (memchr(data, '\0', size)) {
		FUZZ_CHECK(ferr == -EINVAL && strstr(fwhy, "NUL"),
			   "a NUL byte: file reader says %d '%s'", ferr, fwhy);
	} else {
		FUZZ_CHECK(ferr == err && (err || !f || fm.n == m.n) &&
			   (!err || !f || !strcmp(why, fwhy)),
			   "file reader %d, string parser %d", ferr, err);
		if (f && !ferr)
			iomem_free(&fm);
	}
	if (err) {
		FUZZ_CHECK(!strncmp(why, "line ", 5) && !strchr(why, '\n'),
			   "rejection without a line: '%s'", why);
		free(text);
		return 0;
	}
	check_tree(&m);
	for (size_t i = 0; i < m.n && i < 64; i++) {
		const uint64_t a[] = { m.e[i].start, m.e[i].end,
				       m.e[i].start - 1, m.e[i].end + 1,
				       m.e[i].start + (m.e[i].end - m.e[i].start) / 2 };

		for (size_t k = 0; k < sizeof(a) / sizeof(a[0]); k++)
			check_lookup(&m, a[k]);
	}
	check_reprint(&m);
	iomem_free(&m);
	free(text);
	return 0;
}
