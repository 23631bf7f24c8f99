// SPDX-License-Identifier: GPL-2.0
/*
 * The field readers every driver's decoder shares, and the per-device
 * slot lookup of the multi-line drivers (fault_driver.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include "parse/fault/fault_driver.h"
#include "parse/hex.h"

const char *fault_lit(const char *p, const char *s)
{
	size_t n = strlen(s);

	return p && !strncmp(p, s, n) ? p + n : NULL;
}

const char *fault_hex(const char *p, uint64_t *v)
{
	*v = 0;
	return p ? hex_scan(p, 0, v) : NULL;
}

const char *fault_hex0x(const char *p, uint64_t *v)
{
	return fault_lit(p, "0x") ? fault_hex(p + 2, v) : fault_hex(NULL, v);
}

const char *fault_hex_maybe0x(const char *p, uint64_t *v)
{
	return fault_hex(fault_lit(p, "0x") ? p + 2 : p, v);
}

const char *fault_hash_x(const char *p, uint64_t *v)
{
	if (fault_lit(p, "0x"))
		return fault_hex(p + 2, v);
	*v = 0;
	return p && *p == '0' ? p + 1 : NULL;
}

const char *fault_hex32(const char *p, uint32_t *v)
{
	uint64_t x;

	p = fault_hex(p, &x);
	*v = (uint32_t)x;
	return p && x <= UINT32_MAX ? p : NULL;
}

const char *fault_dec(const char *p, uint64_t *v)
{
	const char *s = p;

	*v = 0;
	if (!p)
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++) {
		uint64_t d = (uint64_t)(*p - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return NULL;
		*v = *v * 10 + d;
	}
	return p == s ? NULL : p;
}

/* A hex field of a PCI address, 5.14 VT-d's "0x" allowed. */
static const char *pci_part(const char *p, uint32_t *v)
{
	return fault_hex32(fault_lit(p, "0x") ? p + 2 : p, v);
}

const char *fault_bdf(const char *p, char out[IOMMU_FAULT_NAME_MAX])
{
	uint32_t a, b, c = 0, fn;
	const char *q = pci_part(p, &a);

	if (!q || *q != ':' || !(q = pci_part(q + 1, &b)))
		return NULL;
	if (*q == ':') {
		if (!(q = pci_part(q + 1, &c)))
			return NULL;
	} else {
		c = b, b = a, a = 0;	/* no domain: 0000 */
	}
	if (*q != '.' || !(q = fault_hex32(q + 1, &fn)))
		return NULL;
	if (a > 0xffff || b > 0xff || c > 0x1f || fn > 7 || q - p > 22)
		return NULL;
	snprintf(out, IOMMU_FAULT_NAME_MAX, "%04x:%02x:%02x.%x", a, b, c, fn);
	return q;
}

const char *fault_word(const char *p, const char *stops, char *out,
		       size_t size)
{
	size_t n = p ? strcspn(p, stops) : 0;

	if (!n || n >= size)
		return NULL;
	memcpy(out, p, n);
	out[n] = '\0';
	return p + n;
}

void fault_set_reason(struct iommu_fault *f, const char *s)
{
	size_t n = strnlen(s, sizeof(f->reason) - 1);

	/*
	 * Trimmed of blanks and control bytes (a CR left by a CRLF file)
	 * after the cut, so a reason reads the same printed again.
	 */
	while (n && (unsigned char)s[n - 1] <= ' ')
		n--;
	memmove(f->reason, s, n);
	f->reason[n] = '\0';
}

enum iommu_line fault_malformed(struct iommu_fault *f, const char *driver,
				const char *format, const char *what)
{
	f->iommu = driver;
	f->format = format;
	fault_set_reason(f, what);
	return IOMMU_LINE_MALFORMED;
}

bool fault_dev_prefix(const char *msg, const char *at, char *out,
		      size_t size)
{
	const char *s, *e;

	if (at - msg < 3 || strncmp(at - 2, ": ", 2))
		return false;
	e = at - 2;
	for (s = e; s > msg && s[-1] != ' '; s--)
		;
	if (s == e || (size_t)(e - s) >= size)
		return false;
	memcpy(out, s, (size_t)(e - s));
	out[e - s] = '\0';
	return true;
}

const char *fault_dev_tag(const char *msg, const char *driver,
			  char out[IOMMU_FAULT_NAME_MAX])
{
	size_t n = strlen(driver);
	const char *p;

	for (p = strstr(msg, driver); p; p = strstr(p + 1, driver)) {
		const char *d = p + n + 1;
		size_t len;

		/* a driver's name starts a word: "arm-smmu " in "qarm-smmu " is not */
		if ((p > msg && p[-1] != ' ' && p[-1] != '\t' && p[-1] != ']' &&
		     p[-1] != '`' && p[-1] != '"') || p[n] != ' ')
			continue;
		/* the device runs to the first blank and ends in ':' (PCI names hold ':') */
		len = strcspn(d, " \t");
		if (len < 2 || len > IOMMU_FAULT_NAME_MAX || d[len - 1] != ':' ||
		    d[len] != ' ')
			continue;
		memcpy(out, d, len - 1);
		out[len - 1] = '\0';
		return d + len + 1;
	}
	return NULL;
}

void *fault_slot_find(void *slots, size_t n, size_t size, const char *name,
		      uint64_t *tick, bool *found)
{
	struct fault_slot *lru = slots;

	for (size_t i = 0; i < n; i++) {
		struct fault_slot *s = (void *)((char *)slots + i * size);

		if (s->name[0] && !strcmp(s->name, name)) {
			s->used = ++*tick;
			*found = true;
			return s;
		}
		if (s->used < lru->used)
			lru = s;
	}
	*found = false;
	return lru;
}
