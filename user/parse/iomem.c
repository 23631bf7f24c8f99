// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/array.h"
#include "parse/hex.h"
#include "parse/iomem.h"

/*
 * r_show() stops counting depth at MAX_IORES_LEVEL: deeper resources are
 * printed at this depth, next to the resource that holds them.
 */
#define IOMEM_MAX_PRINTED_DEPTH	5

/*
 * Splits one line (NUL-terminated, no newline) into depth, range and name
 * (pointing into the line).  False if it is not an iomem line.
 */
static bool parse_line(char *line, size_t *depth, struct iomem_entry *e,
		       const char **why)
{
	size_t sp = strspn(line, " ");
	const char *p = line + sp;

	if (sp % 2) {
		*why = "odd indentation";
		return false;
	}
	if (sp / 2 > IOMEM_MAX_PRINTED_DEPTH) {
		*why = "indented deeper than /proc/iomem indents";
		return false;
	}
	*depth = sp / 2;
	p = hex_scan(p, 0, &e->start);
	if (!p || *p != '-' || !(p = hex_scan(p + 1, 0, &e->end))) {
		*why = "expected START-END in hex";
		return false;
	}
	if (strncmp(p, " : ", 3)) {
		*why = "expected \" : \" after the range";
		return false;
	}
	if (e->end < e->start) {
		*why = "range ends before it starts";
		return false;
	}
	e->name = p + 3;
	return true;
}

static bool contains(const struct iomem_entry *outer,
		     const struct iomem_entry *in)
{
	return outer->start <= in->start && in->end <= outer->end;
}

/* Children grouped after the top level, each group sorted by start. */
static int build_order(struct iomem *m)
{
	size_t *cursor, next;

	m->order = malloc((m->n ? m->n : 1) * sizeof(*m->order));
	cursor = calloc(m->n + 1, sizeof(*cursor));
	if (!m->order || !cursor) {
		free(cursor);
		return -ENOMEM;
	}
	m->nr_top = 0;
	for (size_t i = 0; i < m->n; i++) {
		if (m->e[i].parent == IOMEM_NONE)
			m->nr_top++;
		else
			m->e[m->e[i].parent].nr_kids++;
	}
	next = m->nr_top;
	for (size_t i = 0; i < m->n; i++) {
		m->e[i].kids = next;
		next += m->e[i].nr_kids;
	}
	/* cursor[n] counts the top level; the file order is address order */
	for (size_t i = 0; i < m->n; i++) {
		size_t p = m->e[i].parent;
		size_t base = p == IOMEM_NONE ? 0 : m->e[p].kids;
		size_t *c = &cursor[p == IOMEM_NONE ? m->n : p];

		m->order[base + (*c)++] = i;
	}
	free(cursor);
	/* insertion sort: already sorted unless the text says otherwise */
	for (size_t g = 0; g <= m->n; g++) {
		size_t base = g == m->n ? 0 : m->e[g].kids;
		size_t cnt = g == m->n ? m->nr_top : m->e[g].nr_kids;

		for (size_t i = 1; i < cnt; i++) {
			size_t v = m->order[base + i], j = i;

			while (j && m->e[m->order[base + j - 1]].start >
				    m->e[v].start) {
				m->order[base + j] = m->order[base + j - 1];
				j--;
			}
			m->order[base + j] = v;
		}
	}
	return 0;
}

int iomem_parse_string(struct iomem *m, const char *text, char *why,
		       size_t why_size)
{
	size_t lines = 1, depth = 0, line_no = 0, *stack;
	char *p, *end;
	bool all_zero = true;
	int err;

	memset(m, 0, sizeof(*m));
	for (const char *c = text; *c; c++)
		lines += *c == '\n';
	m->names = strdup(text);
	m->e = calloc(lines, sizeof(*m->e));
	/* stack[d]: the last entry at depth d */
	stack = calloc(lines + 1, sizeof(*stack));
	if (!m->names || !m->e || !stack) {
		free(stack);
		iomem_free(m);
		return -ENOMEM;
	}
	for (p = m->names; *p; p = end) {
		struct iomem_entry *e = &m->e[m->n];
		const char *bad = NULL;
		size_t d;

		end = p + strcspn(p, "\n");
		if (*end)
			*end++ = '\0';
		line_no++;
		if (!*p)
			continue;
		if (!parse_line(p, &d, e, &bad) ||
		    (d > (m->n ? depth + 1 : 0) &&
		     (bad = "indented deeper than the line before"))) {
			snprintf(why, why_size, "line %zu: %s: %.60s", line_no,
				 bad, p);
			free(stack);
			iomem_free(m);
			return -EINVAL;
		}
		e->parent = d ? stack[d - 1] : IOMEM_NONE;
		/* a resource deeper than r_show counts, printed beside its holder */
		while (d >= IOMEM_MAX_PRINTED_DEPTH && d <= depth &&
		       contains(&m->e[stack[d]], e) && e->start != e->end) {
			e->parent = stack[d];
			d++;
		}
		all_zero = all_zero && !e->start && !e->end;
		stack[d] = m->n++;
		depth = d;
	}
	free(stack);
	m->zeroed = m->n && all_zero;
	err = build_order(m);
	if (err)
		iomem_free(m);
	return err;
}

int iomem_parse_file(struct iomem *m, FILE *f, char *why, size_t why_size)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	int err;

	memset(m, 0, sizeof(*m));
	if (!buf)
		return -ENOMEM;
	for (;;) {
		size_t got;

		char *bigger = array_grow(buf, &cap, len + 2, 1, cap, 0);

		if (!bigger) {
			free(buf);
			return -ENOMEM;
		}
		buf = bigger;
		got = fread(buf + len, 1, cap - 1 - len, f);
		len += got;
		if (got)
			continue;
		if (ferror(f)) {
			err = errno ? -errno : -EIO;
			snprintf(why, why_size, "read error");
			free(buf);
			return err;
		}
		break;
	}
	buf[len] = '\0';
	if (strlen(buf) != len) {
		snprintf(why, why_size, "a NUL byte in the text");
		free(buf);
		return -EINVAL;
	}
	err = iomem_parse_string(m, buf, why, why_size);
	free(buf);
	return err;
}

void iomem_free(struct iomem *m)
{
	free(m->e);
	free(m->order);
	free(m->names);
	memset(m, 0, sizeof(*m));
}

size_t iomem_find(const struct iomem *m, uint64_t addr)
{
	const size_t *group = m->order;
	size_t cnt = m->nr_top, found = IOMEM_NONE;

	if (m->zeroed)
		return IOMEM_NONE;
	while (cnt) {
		/* the last sibling starting at or below addr */
		size_t lo = 0, hi = cnt;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (m->e[group[mid]].start <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo || addr > m->e[group[lo - 1]].end)
			break;
		found = group[lo - 1];
		group = m->order + m->e[found].kids;
		cnt = m->e[found].nr_kids;
	}
	return found;
}

char *iomem_path(const struct iomem *m, size_t idx, char *buf, size_t size)
{
	size_t depth = 0, used = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (idx == IOMEM_NONE)
		return buf;
	for (size_t i = idx; m->e[i].parent != IOMEM_NONE; i = m->e[i].parent)
		depth++;
	for (size_t level = 0; level <= depth && used < size; level++) {
		size_t i = idx;
		int n;

		for (size_t up = level; up < depth; up++)
			i = m->e[i].parent;
		n = snprintf(buf + used, size - used, "%s%s",
			     level ? " > " : "", m->e[i].name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

bool iomem_is_ram(const struct iomem *m, size_t idx)
{
	if (idx == IOMEM_NONE)
		return false;
	while (m->e[idx].parent != IOMEM_NONE)
		idx = m->e[idx].parent;
	return !strcmp(m->e[idx].name, "System RAM");
}
