// SPDX-License-Identifier: GPL-2.0
/* The geometry line (geometry.h): "key=value" pairs, decimal bytes. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse/geometry.h"

static bool power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

static unsigned int log2_u64(uint64_t v)
{
	unsigned int s = 0;

	while (v >>= 1)
		s++;
	return s;
}

/* Where each key lands: a level's leaf or group size, or levels. */
static uint64_t *geom_slot(struct page_geom *g, const char *key, size_t len,
			   uint64_t *page_size, uint64_t *levels)
{
	static const struct {
		const char *key;
		int level;
		bool cont;
	} keys[] = {
		{ "pte", PTWALK_LEVEL_PTE, false },
		{ "cont_pte", PTWALK_LEVEL_PTE, true },
		{ "pmd", PTWALK_LEVEL_PMD, false },
		{ "cont_pmd", PTWALK_LEVEL_PMD, true },
		{ "pud", PTWALK_LEVEL_PUD, false },
	};
	size_t i;

	if (len == strlen("page_size") && !strncmp(key, "page_size", len))
		return page_size;
	if (len == strlen("levels") && !strncmp(key, "levels", len))
		return levels;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (len == strlen(keys[i].key) && !strncmp(key, keys[i].key, len))
			return keys[i].cont ? &g->cont[keys[i].level] :
					      &g->leaf[keys[i].level];
	return NULL;
}

int geom_parse(const char *line, struct page_geom *g, char *why,
	       size_t why_size)
{
	uint64_t page_size = 0, levels = 0, ignored;
	const char *p = line;
	int level;

	memset(g, 0, sizeof(*g));
	while (*p) {
		const char *eq, *key;
		uint64_t *slot;
		char *end;

		while (*p == ' ' || *p == '\n')
			p++;
		if (!*p)
			break;
		key = p;
		eq = memchr(key, '=', strcspn(key, " \n"));
		if (!eq || eq == key) {
			snprintf(why, why_size, "geometry: expected key=value at \"%.20s\"", key);
			return -1;
		}
		slot = geom_slot(g, key, (size_t)(eq - key), &page_size, &levels);
		if (eq[1] < '0' || eq[1] > '9') {
			snprintf(why, why_size, "geometry: \"%.*s\" has no decimal value",
				 (int)(eq - key), key);
			return -1;
		}
		*(slot ? slot : &ignored) = strtoull(eq + 1, &end, 10);
		p = end;
		if (*p && *p != ' ' && *p != '\n') {
			snprintf(why, why_size, "geometry: \"%.*s\" has no decimal value",
				 (int)(eq - key), key);
			return -1;
		}
	}
	if (!power_of_two(page_size) || g->leaf[PTWALK_LEVEL_PTE] != page_size ||
	    !power_of_two(g->leaf[PTWALK_LEVEL_PMD])) {
		snprintf(why, why_size,
			 "geometry: page_size, pte and pmd must be equal powers of two (page_size=%" PRIu64 ")",
			 page_size);
		return -1;
	}
	for (level = PTWALK_LEVEL_PTE; level <= PTWALK_LEVEL_PUD; level++)
		if ((g->leaf[level] && !power_of_two(g->leaf[level])) ||
		    (g->cont[level] && !power_of_two(g->cont[level]))) {
			snprintf(why, why_size,
				 "geometry: a leaf or group size is not a power of two");
			return -1;
		}
	g->shift = log2_u64(page_size);
	g->levels = (unsigned int)levels;
	g->from_module = true;
	return 0;
}

void geom_assume_4k(struct page_geom *g)
{
	memset(g, 0, sizeof(*g));
	g->shift = 12;
	g->leaf[PTWALK_LEVEL_PTE] = 1ULL << 12;
	g->leaf[PTWALK_LEVEL_PMD] = 1ULL << 21;
	g->leaf[PTWALK_LEVEL_PUD] = 1ULL << 30;
}

int geom_check_page_size(const struct page_geom *g, long page_size,
			 char *why, size_t why_size)
{
	if (page_size > 0 && (uint64_t)page_size == geom_page_size(g))
		return 0;
	snprintf(why, why_size,
		 "ptwalk.ko says the kernel's page is %" PRIu64 " bytes, sysconf(_SC_PAGESIZE) %ld: load the module built for the running kernel",
		 geom_page_size(g), page_size);
	return -1;
}
