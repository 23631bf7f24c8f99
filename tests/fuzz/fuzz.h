/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libFuzzer targets share: an invariant check that fails the run
 * (abort: libFuzzer saves the input as a crash artifact) and a reader that
 * takes fixed-size values off the input, zeros once it is used up.
 */
#ifndef PTWALK_FUZZ_H
#define PTWALK_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/page.h"

/* x86-64's page geometry (4K, 2M, 1G), for targets that count 4K pages. */
#define FUZZ_GEOM ((const struct page_geom[]){				\
	{ .shift = 12, .leaf = { 0, 1ULL << 12, 1ULL << 21, 1ULL << 30 } } })

/*
 * One of the geometries ptwalk.ko states (module/ptwalk_abi.h): x86-64,
 * arm64 with 4K, 16K and 64K pages, by the input's pick.
 */
static inline struct page_geom fuzz_geom(unsigned int pick)
{
	static const struct page_geom geoms[] = {
		{ .shift = 12, .leaf = { 0, 1ULL << 12, 1ULL << 21, 1ULL << 30 } },
		{ .shift = 12, .leaf = { 0, 1ULL << 12, 1ULL << 21, 1ULL << 30 },
		  .cont = { 0, 1ULL << 16, 1ULL << 25, 0 } },
		{ .shift = 14, .leaf = { 0, 1ULL << 14, 1ULL << 25, 0 },
		  .cont = { 0, 1ULL << 21, 1ULL << 30, 0 } },
		{ .shift = 16, .leaf = { 0, 1ULL << 16, 1ULL << 29, 0 },
		  .cont = { 0, 1ULL << 21, 1ULL << 34, 0 } },
	};

	return geoms[pick % (sizeof(geoms) / sizeof(geoms[0]))];
}

#define FUZZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "fuzz: %s:%d: broken: %s: ",	\
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

static inline const uint8_t *fuzz_take(struct fuzz_in *in, size_t len)
{
	const uint8_t *p = in->p;

	if (len > in->n)
		return NULL;
	in->p += len;
	in->n -= len;
	return p;
}

/* Little-endian, as the kernel hands out its words on x86-64. */
static inline uint64_t fuzz_uint(struct fuzz_in *in, size_t bytes)
{
	uint64_t v = 0;

	for (size_t i = 0; i < bytes && in->n; i++) {
		v |= (uint64_t)in->p[0] << (8 * i);
		in->p++;
		in->n--;
	}
	return v;
}

static inline uint8_t fuzz_u8(struct fuzz_in *in)
{
	return (uint8_t)fuzz_uint(in, 1);
}

static inline uint64_t fuzz_u64(struct fuzz_in *in)
{
	return fuzz_uint(in, 8);
}

/* The rest of the input as a NUL-terminated string (stops at a NUL byte). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif /* PTWALK_FUZZ_H */
