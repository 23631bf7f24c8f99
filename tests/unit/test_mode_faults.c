// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --faults --fault-file (cmd/mode_faults.c) on text pasted
 * from other machines: decoded whatever this machine is (no ptwalk.ko,
 * no root), the live parts null with their reason, and the exit status
 * telling "no fault" (0), "faults" (1) and "lines not decoded" (17)
 * apart.  Each fault names a device this machine has not, or a time
 * after boot it has not reached, so the answer is the same on every
 * machine, with ptwalk.ko loaded or not.
 */
#define _GNU_SOURCE
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "json_get.h"
#include "cmd/mode_faults.h"
#include "model/outcome.h"
#include "parse/cli.h"

struct run {
	int status;
	char msg[512];
	struct json_object *doc;
	char out[65536];
};

/* ptcompare --json --faults --fault-file FILE, FILE holding text. */
static void run_faults(const char *text, bool json, struct run *r)
{
	char path[] = "/tmp/ptcompare-faults-XXXXXX";
	int fd = mkstemp(path), saved, out;
	const char *argv[] = { "ptcompare", "--faults", "--fault-file", path,
			       json ? "--json" : NULL, NULL };
	struct cli_options o;
	char err[256];
	FILE *f;
	size_t n;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_true(cli_parse(json ? 5 : 4, (char *const *)argv, &o, err,
			      sizeof(err)));
	f = tmpfile();
	assert_non_null(f);
	fflush(stdout);
	saved = dup(1);
	out = fileno(f);
	dup2(out, 1);
	r->msg[0] = '\0';
	r->status = mode_faults(&o, r->msg, sizeof(r->msg));
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(f);
	n = fread(r->out, 1, sizeof(r->out) - 1, f);
	r->out[n] = '\0';
	fclose(f);
	unlink(path);
	r->doc = json ? json_tokener_parse(r->out) : NULL;
	if (json && !r->doc)
		fail_msg("not JSON: %s", r->out);
}

static struct json_object *fault_n(struct run *r, size_t i)
{
	struct json_object *a = json_get(r->doc, "faults");

	assert_non_null(a);
	assert_true(i < json_object_array_length(a));
	return json_object_array_get_idx(a, i);
}

/* text pasted, as JSON: it must give faults (the status says so); fault 0. */
static struct json_object *first_fault(const char *text, struct run *r)
{
	run_faults(text, true, r);
	assert_int_equal(r->status, EXIT_MISMATCH);
	return fault_n(r, 0);
}

/* A fault's string members: each key there, a string, and that value. */
struct field {
	const char *key, *value;
};

static void fields_are(struct json_object *f, const struct field *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *got = json_str(f, w[i].key);

		if (strcmp(got, w[i].value))
			fail_msg("\"%s\": \"%s\", want \"%s\"", w[i].key, got,
				 w[i].value);
	}
}

#define FIELDS(f, ...)							\
	do {								\
		static const struct field w[] = { __VA_ARGS__ };	\
		fields_are(f, w, sizeof(w) / sizeof(w[0]));		\
	} while (0)

/* A fault's members that must be there and JSON null. */
static void nulls_are(struct json_object *f, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!json_object_is_type(json_get(f, keys[i]), json_type_null))
			fail_msg("\"%s\" not null", keys[i]);
}

#define NULLS(f, ...)							\
	do {								\
		static const char *const k[] = { __VA_ARGS__ };		\
		nulls_are(f, k, sizeof(k) / sizeof(k[0]));		\
	} while (0)

/* VT-d 5.15 from another machine: every field, the live ones null. */
static void pasted_vtd_decoded(void **state)
{
	struct run r;
	struct json_object *f;

	(void)state;
	f = first_fault("Apr 29 10:00:01 otherhost kernel: [  189.706380] DMAR: [DMA Write PASID 0x5] Request device [ee:1f.7] fault addr 0x7f0012345000 [fault reason 0x05] PTE Write access is not set\n", &r);
	FIELDS(f,
	       { "iommu", "vt-d" },
	       { "format", "5.15+" },
	       { "device", "0000:ee:1f.7" },
	       { "iova", "0x7f0012345000" },
	       { "access", "write" },
	       { "reason_code", "0x5" },
	       { "reason", "PTE Write access is not set" },
	       { "pasid", "0x5" },
	       { "time", "189.706380" },
	       { "wall_time", "Apr 29 10:00:01" },
	       { "live_note", "no such device here" });
	NULLS(f, "domain_id", "domain", "owner", "last_mapping", "driver");
	assert_int_equal(json_num(r.doc, "undecoded_count"), 0);
	json_object_put(r.doc);
}

/* A fault later after boot than this machine has been up. */
static void pasted_not_this_machine(void **state)
{
	struct run r;
	struct json_object *f;

	(void)state;
	f = first_fault("[99999999.000001] ahci 0000:00:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x000d address=0xfffffffdf8000000 flags=0x0020]\n", &r);
	FIELDS(f,
	       { "iommu", "amd-vi" },
	       { "domain_id", "0xd" },
	       { "flags", "0x20" },
	       { "live_note", "not this machine" });
	json_object_put(r.doc);
}

/* Decoded and undecoded lines: the faults print, the status is 17. */
static void undecoded_wins(void **state)
{
	struct run r;
	struct json_object *u;

	(void)state;
	run_faults("virtio_iommu virtio0: page fault from EP 32 at 0x7ea000000000 []\n"
		   "omap-iommu 4a066000.mmu: iommu fault: da 0x20000000 flags 0x0\n",
		   true, &r);
	assert_int_equal(r.status, EXIT_FAULT_UNDECODED);
	assert_non_null(strstr(r.msg, "1 IOMMU fault line not decoded"));
	assert_non_null(strstr(r.msg, "line 2"));
	assert_non_null(strstr(r.msg, "please report this line"));
	assert_string_equal(json_str(fault_n(&r, 0), "iommu"), "virtio-iommu");
	assert_string_equal(json_str(fault_n(&r, 0), "stream_id"), "0x20");
	assert_int_equal(json_num(r.doc, "undecoded_count"), 1);
	u = json_object_array_get_idx(json_get(r.doc, "faults_undecoded"), 0);
	assert_non_null(u);
	assert_int_equal(json_num(u, "line"), 2);
	assert_string_equal(json_str(u, "driver"), "unknown");
	assert_non_null(strstr(json_str(u, "text"), "iommu fault: da"));
	json_object_put(r.doc);
	/* an event cut short by the end: undecoded too, never "no fault" */
	run_faults("arm-smmu-v3 9050000.smmuv3: event 0x10 received:\n", false, &r);
	assert_int_equal(r.status, EXIT_FAULT_UNDECODED);
	assert_non_null(strstr(r.out, "undecoded: "));
	assert_null(strstr(r.out, "no IOMMU faults"));
}

/* No fault at all: 0, and said so. */
static void no_fault(void **state)
{
	struct run r;

	(void)state;
	run_faults("[    1.0] DMAR: DRHD: handling fault status reg 2\n[    1.1] usb 1-1: new device\n",
		   false, &r);
	assert_int_equal(r.status, EXIT_OK);
	assert_string_equal(r.out, "no IOMMU faults in the text given\n");
}

/* A file that cannot be read: a usage error naming it. */
static void unreadable_file(void **state)
{
	const char *argv[] = { "ptcompare", "--faults", "--fault-file",
			       "/nonexistent/log", NULL };
	struct cli_options o;
	char msg[512];

	(void)state;
	assert_true(cli_parse(4, (char *const *)argv, &o, msg, sizeof(msg)));
	assert_int_equal(mode_faults(&o, msg, sizeof(msg)), EXIT_USAGE);
	assert_non_null(strstr(msg, "cannot read /nonexistent/log"));
}

/*
 * The embedded IOMMUs' fields in the JSON: arm-smmu 6.11's three lines
 * (StreamID, FSR as the reason code, FSYNR0 as the flags), mtk-iommu's
 * larb and port as the master, tegra-mc's client.
 */
static void pasted_embedded_json(void **state)
{
	struct run r;
	struct json_object *f;

	(void)state;
	f = first_fault("arm-smmu 15000000.iommu: Unhandled context fault: fsr=0x402, iova=0x00000000, fsynr=0x3d0023, cbfrsynra=0x1c00, cb=13\n"
			"arm-smmu 15000000.iommu: FSR    = 00000402 [Format=2 TF], SID=0x1c00\n"
			"arm-smmu 15000000.iommu: FSYNR0 = 003d0023 [S1CBNDX=61 PNU PLVL=3]\n"
			"mtk-iommu 1401d000.m4u: fault type=0x280 iova=0x1ff7c0000 pa=0x0 master=0x5000480(larb=5 port=0) layer=0 read\n"
			"tegra-mc 7000f000.memory-controller: fdcdwr2: write @0x877e8400: Page fault (SMMU translation error [--S])\n",
			&r);
	FIELDS(f,
	       { "iommu", "arm-smmu" },
	       { "format", "6.11+, three lines" },
	       { "iommu_device", "15000000.iommu" },
	       { "stream_id", "0x1c00" },
	       { "iova", "0x0" },
	       { "reason_code", "0x402" },
	       { "reason", "translation fault; context bank 13" },
	       { "class", "unmapped" },
	       { "flags", "0x3d0023" },
	       { "access", "read" },
	       { "live_note", "no such device here" });
	f = fault_n(&r, 1);
	FIELDS(f,
	       { "iommu", "mtk-iommu" },
	       { "master", "larb 5 port 0" },
	       { "stream_id", "0x5000480" },
	       { "iova", "0x1ff7c0000" });
	f = fault_n(&r, 2);
	FIELDS(f,
	       { "iommu", "tegra-smmu" },
	       { "master", "fdcdwr2" },
	       { "access", "write" },
	       { "reason", "Page fault (SMMU translation error [--S])" });
	assert_int_equal(json_num(r.doc, "undecoded_count"), 0);
	json_object_put(r.doc);
}

UNIT_MAIN("mode_faults",
	  UT(pasted_vtd_decoded), UT(pasted_not_this_machine),
	  UT(undecoded_wins), UT(no_fault), UT(unreadable_file),
	  UT(pasted_embedded_json))
