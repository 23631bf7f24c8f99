// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare on whole processes: the JSON over every VMA, the human report,
 * a mismatch, a process that exits mid-scan, and memory that stays bounded.
 * Every memory case of cases_memory.c also runs ptcompare on its range
 * (check_range), so these cases cover what a single range cannot.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ptcompare_run.h"
#include "vmtest.h"

static bool has_string(struct json_object *arr, const char *s)
{
	size_t i;

	for (i = 0; i < json_object_array_length(arr); i++)
		if (!strcmp(json_object_get_string(
			    json_object_array_get_idx(arr, i)), s))
			return true;
	return false;
}

/*
 * The fixture's impostor claims frames that pagemap contradicts on every
 * read: every page is a mismatch, re-read and still wrong, exit 1, and
 * both sides' values are those of the impostor and of the oracle.  It
 * knows no task query, like a ptwalk.ko before it: the report still names
 * the process.
 */
VMTEST_CASE(ptcompare, "ptcompare_mismatch_exit_1", mismatch_exit_1)
{
	const char *liar = PTWALK_DEFAULT_DEBUGFS "/ptwalk_fixture_liar";
	size_t len = 8 * PAGE, i;
	char *p = map_anon(t, len, MAP_PRIVATE | MAP_ANONYMOUS, MADV_NOHUGEPAGE);
	char range[64], pid[16], finding[96];
	const char *argv[] = { "ptcompare", "--debugfs", liar, "--range",
			       range, pid, NULL };
	struct ptwalk_fixture_translate o;
	struct pc_result r;
	struct pc_range pr;
	bool ok;

	if (!p)
		return false;
	touch_write(p, len);
	ok = pc_json_from(t, &r, getpid(), A(p), A(p) + len, liar, 1) &&
	     (!strcmp(json_object_get_string(json_object_object_get(r.doc,
				"verdict")), "mismatch") ||
	      fail(t, "verdict is not mismatch")) &&
	     (json_object_get_int64(json_object_object_get(json_object_object_get(
			r.doc, "summary"), "mismatch")) == 8 ||
	      fail(t, "expected 8 mismatching pages: %s", r.out)) &&
	     (strstr(r.err, " rereads=3 ") ||
	      fail(t, "expected 3 re-reads: %s", r.err)) &&
	     /* the impostor has no task query: the name from /proc/PID/stat */
	     (!strcmp(json_object_get_string(json_object_object_get(r.doc,
				"comm")), "vmtest") ||
	      fail(t, "comm is not vmtest"));
	for (i = 0; ok && i < 8; i++) {
		uint64_t addr = A(p) + i * PAGE;

		ok = oracle(t, addr, &o) && pc_find(t, &r, addr, &pr) &&
		     (!strcmp(pr.cls, "mismatch") ||
		      fail(t, "page %zu: %s", i, pr.cls)) &&
		     (pr.walk_pfn + (addr - pr.start) / PAGE ==
		      PTWALK_FIXTURE_LIAR_PFN + addr / PAGE ||
		      fail(t, "page %zu: walk_pfn not the impostor's", i)) &&
		     (pr.pagemap_pfn + (addr - pr.start) / PAGE == o.pfn ||
		      fail(t, "page %zu: pagemap_pfn not the oracle's", i));
	}
	pc_free(&r);
	/* the human report says it too, and exits 1 */
	snprintf(range, sizeof(range), "0x%" PRIx64 "-0x%" PRIx64, A(p),
		 A(p) + len);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(finding, sizeof(finding), " mismatch      pte  ptwalk: pfn 0x%" PRIx64 " ",
		 (uint64_t)(PTWALK_FIXTURE_LIAR_PFN + A(p) / PAGE));
	ok = ok && pc_run(t, &r, argv) &&
	     (r.status == 1 || fail(t, "text report exit %d", r.status)) &&
	     (strstr(r.out, "\nverdict: MISMATCH: 8 of 8 pages differ") ||
	      fail(t, "no MISMATCH verdict: %s", r.out)) &&
	     (strstr(r.out, finding) ||
	      fail(t, "no mismatch finding '%s': %s", finding, r.out));
	pc_free(&r);
	munmap(p, len);
	return ok;
}

/*
 * Every VMA of the process: ranges cover each examined VMA exactly, in
 * address order; nothing is a mismatch; the fixture's frames show as
 * pfnmap_hidden with the frames the fixture mapped.
 */
VMTEST_CASE(ptcompare, "ptcompare_whole_process_json", whole_process_json)
{
	struct ptwalk_fixture_pfns known;
	char pid[16], *p = vm_map_fixture(t, &known);
	const char *argv[] = { "ptcompare", "--json", pid, NULL };
	struct json_object *vmas, *ranges, *summary;
	enum json_tokener_error jerr;
	uint64_t covered = 0, pages = 0, next = 0;
	const char *skipped;
	struct pc_result r;
	size_t i, ri = 0;
	bool ok = true, stack = false;

	if (!p)
		return false;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (!pc_run(t, &r, argv))
		return false;
	if (r.status != 0) {
		ok = fail(t, "exit %d: %s", r.status, r.err);
		goto out;
	}
	r.doc = json_tokener_parse_verbose(r.out, &jerr);
	if (!r.doc) {
		ok = fail(t, "invalid JSON: %s", json_tokener_error_desc(jerr));
		goto out;
	}
	vmas = pc_get(r.doc, "vmas");
	ranges = pc_get(r.doc, "ranges");
	summary = pc_get(r.doc, "summary");
	/* the name ptwalk's task query gave */
	if (strcmp(json_object_get_string(pc_get(r.doc, "comm")), "vmtest"))
		ok = fail(t, "comm '%s', not vmtest",
			  json_object_get_string(pc_get(r.doc, "comm")));
	for (i = 0; ok && i < json_object_array_length(vmas); i++) {
		struct json_object *v = json_object_array_get_idx(vmas, i);
		uint64_t s = pc_hex_or_none(v, "start");
		uint64_t e = pc_hex_or_none(v, "end");

		if (s == NO_PFN || e == NO_PFN) {
			ok = fail(t, "VMA without a start or end: %s",
				  json_object_to_json_string(v));
			break;
		}
		if (!strcmp(json_object_get_string(pc_get(v, "name")), "[stack]"))
			stack = has_string(pc_get(v, "vm_flags"), "growsdown");
		if (!json_object_get_boolean(pc_get(v, "examined")))
			continue;
		if (s < next)
			ok = fail(t, "VMAs out of order at 0x%" PRIx64, s);
		/* this VMA's ranges follow, in order, covering it exactly */
		for (next = s; ok && next < e; ri++) {
			struct json_object *o = json_object_array_get_idx(ranges, ri);
			uint64_t n = o ? (uint64_t)json_object_get_int64(pc_get(o, "pages")) : 0;

			if (!o || pc_hex_or_none(o, "start") != next || !n)
				ok = fail(t, "no range at 0x%" PRIx64 " in VMA 0x%"
					  PRIx64 "-0x%" PRIx64, next, s, e);
			next += n * PAGE;
			covered += n;
		}
		if (ok && next != e)
			ok = fail(t, "ranges overrun VMA end 0x%" PRIx64, e);
	}
	pages = (uint64_t)json_object_get_int64(pc_get(r.doc, "pages"));
	ok = ok && (ri == json_object_array_length(ranges) ||
		    fail(t, "%zu ranges outside any VMA",
			 json_object_array_length(ranges) - ri)) &&
	     (covered == pages ||
	      fail(t, "ranges cover %" PRIu64 " pages, document says %" PRIu64,
		   covered, pages)) &&
	     (json_object_get_int64(pc_get(summary, "mismatch")) == 0 ||
	      fail(t, "mismatch on a quiet process: %s", r.out)) &&
	     (json_object_get_int64(pc_get(summary, "pfnmap_hidden")) >=
	      PTWALK_FIXTURE_PAGES ||
	      fail(t, "fixture pages not counted as pfnmap_hidden")) &&
	     (stack || fail(t, "[stack] without growsdown in vm_flags")) &&
	     (!strcmp(json_object_get_string(pc_get(r.doc, "verdict")), "ok") ||
	      fail(t, "verdict not ok")) &&
	     /* without --kpageflags, the third witness is off, and says so */
	     (((skipped = json_object_get_string(pc_get(pc_get(r.doc,
			"witnesses"), "kpageflags_skipped"))) &&
	       strstr(skipped, "--kpageflags")) ||
	      fail(t, "kpageflags_skipped does not name --kpageflags"));
	for (i = 0; ok && i < PTWALK_FIXTURE_PAGES; i++) {
		struct ptwalk_fixture_translate o = {
			.status = PTWALK_FIXTURE_MAPPED, .pfn = known.pfn[i],
		};

		ok = pc_check_page(t, &r, A(p) + i * PAGE, &o, "pfnmap_hidden",
				   "pte");
	}
out:
	pc_free(&r);
	munmap(p, PTWALK_FIXTURE_PAGES * PAGE);
	return ok;
}

/* The human report: header, table row, finding with the physical address. */
VMTEST_CASE(ptcompare, "ptcompare_text_report", text_report)
{
	struct ptwalk_fixture_pfns known;
	char pid[16], needle[160], *p = vm_map_fixture(t, &known);
	const char *argv[] = { "ptcompare", pid, NULL };
	struct pc_result r;
	bool ok;

	if (!p)
		return false;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	ok = pc_run(t, &r, argv);
	snprintf(needle, sizeof(needle), "ptcompare: pid %s (vmtest)", pid);
	ok = ok && (r.status == 0 || fail(t, "exit %d: %s", r.status, r.err)) &&
	     (strstr(r.out, needle) || fail(t, "no header '%s'", needle)) &&
	     (strstr(r.out, "\nVMA ") || fail(t, "no table header"));
	snprintf(needle, sizeof(needle), "0x%012" PRIx64 "-", A(p));
	ok = ok && (strstr(r.out, needle) || fail(t, "no table row %s", needle));
	/*
	 * the contiguous block is one finding, with its physical address:
	 * the fixture's own pages, write-back; remap_pfn_range() made the
	 * entries special, so neither pin count nor node is read
	 */
	snprintf(needle, sizeof(needle),
		 "0x%012" PRIx64 "      8 pages  pfnmap_hidden pte  ptwalk: pfn 0x%"
		 PRIx64 " (phys 0x%" PRIx64 ") [" RAM_MEMTYPE_NAME
		 "]; pagemap: hole\n",
		 A(p), (uint64_t)known.pfn[0], (uint64_t)known.pfn[0] << PAGE_SHIFT_K);
	ok = ok && (strstr(r.out, needle) || fail(t, "no finding '%s'", needle)) &&
	     (strstr(r.out, "\nverdict: ok: all ") ||
	      fail(t, "no ok verdict")) &&
	     (strstr(r.out, "pfnmap_hidden: a VM_PFNMAP") ||
	      fail(t, "pfnmap_hidden not explained"));
	pc_free(&r);
	munmap(p, PTWALK_FIXTURE_PAGES * PAGE);
	return ok;
}

/*
 * A process killed mid-scan: ptcompare is stopped once it has opened the
 * target's pagemap, the target is killed and reaped, ptcompare resumes and
 * must say the process exited, with status EXIT_EXITED and no report.
 */
VMTEST_CASE(ptcompare, "ptcompare_exited_during_scan", exited_during_scan)
{
	size_t len = 512 * MIB;
	char pidstr[16], fdpath[64], link[64];
	const char *argv[] = { "ptcompare", "--json", pidstr, NULL };
	bool caught = false, ok = true;
	int attempt, status;

	for (attempt = 0; ok && !caught && attempt < 5; attempt++) {
		posix_spawn_file_actions_t fa;
		pid_t target, pc;
		int fd, err, ready[2];
		char c;

		if (pipe(ready))
			return fail(t, "pipe: %s", strerror(errno));
		target = fork();
		if (target < 0)
			return fail(t, "fork: %s", strerror(errno));
		if (target == 0) {
			char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				_exit(1);
			madvise(p, len, MADV_NOHUGEPAGE);
			touch_write(p, len);
			if (write(ready[1], "r", 1) != 1)
				_exit(1);
			pause();
			_exit(0);
		}
		close(ready[1]);
		if (read(ready[0], &c, 1) != 1) {
			close(ready[0]);
			waitpid(target, NULL, 0);
			return fail(t, "target could not map %zu bytes", len);
		}
		close(ready[0]);
		snprintf(pidstr, sizeof(pidstr), "%d", (int)target);
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 2, "/tmp/exited.err",
						 O_WRONLY | O_CREAT | O_TRUNC, 0600);
		err = posix_spawn(&pc, "/bin/ptcompare", &fa, NULL,
				  (char *const *)argv, NULL);
		posix_spawn_file_actions_destroy(&fa);
		if (err) {
			kill(target, SIGKILL);
			waitpid(target, NULL, 0);
			return fail(t, "spawn: %s", strerror(err));
		}
		/*
		 * Stop ptcompare as soon as it holds the target's pagemap
		 * (opened after ptwalk's sessions and the spools: fd 10 today)
		 */
		for (int spin = 0; spin < 200000 && !caught; spin++) {
			for (fd = 3; fd < 16 && !caught; fd++) {
				ssize_t n;

				snprintf(fdpath, sizeof(fdpath), "/proc/%d/fd/%d",
					 (int)pc, fd);
				n = readlink(fdpath, link, sizeof(link) - 1);
				if (n > 0) {
					link[n] = '\0';
					if (strstr(link, "pagemap")) {
						kill(pc, SIGSTOP);
						caught = true;
					}
				}
			}
		}
		kill(target, SIGKILL);
		waitpid(target, NULL, 0);
		if (caught)
			kill(pc, SIGCONT);
		waitpid(pc, &status, 0);
		if (caught) {
			FILE *f = fopen("/tmp/exited.err", "r");
			char msg[512] = "";

			if (f) {
				if (!fgets(msg, sizeof(msg), f))
					msg[0] = '\0';
				fclose(f);
			}
			/* finished before the stop took effect: try again */
			if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
				caught = false;
				continue;
			}
			ok = (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_EXITED) ?
			     (strstr(msg, "exited during the scan") != NULL ||
			      fail(t, "message: %s", msg)) :
			     fail(t, "status 0x%x, message: %s", status, msg);
		}
	}
	return ok && (caught || fail(t, "could not stop ptcompare mid-scan"));
}

/*
 * A sparse 4 GiB mapping with one page touched per MiB: thousands of
 * ranges, a million pages; ptcompare's peak RSS stays small because the
 * scan is batched and the output spooled.
 *
 * The sanitized builds (PTWALK_SANITIZED: vm-asan, vm-tsan, check-debug
 * DEBUG_SANITIZED=1) cannot hold that bound, and should not: their VmHWM
 * holds ASan's shadow memory, redzones and quarantine (freed blocks kept
 * back, up to 256 MiB, to catch a use after free), or TSan's shadow and
 * per-thread state (about 29 MiB for a sixteenth already), not only
 * ptcompare's own.  The bound is checked by the plain build (make
 * check-vm); the sanitized run checks that memory does not grow with the
 * range instead: the whole mapping may cost at most 16 MiB more than a
 * scan of its first sixteenth.
 */
VMTEST_CASE(ptcompare, "ptcompare_memory_bounded", memory_bounded)
{
	size_t len = 4 * GIB, i;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	bool sanitized = getenv("PTWALK_SANITIZED") != NULL;
	struct ptwalk_fixture_translate o;
	struct pc_result r, part;
	uint64_t base = 0;
	bool ok;

	if (p == MAP_FAILED)
		return fail(t, "mmap 4 GiB: %s", strerror(errno));
	madvise(p, len, MADV_NOHUGEPAGE);
	for (i = 0; i < len; i += MIB)
		p[i] = 1;
	if (sanitized) {
		ok = pc_json(t, &part, getpid(), A(p), A(p) + len / 16);
		base = part.peak_rss_kib;
		pc_free(&part);
		if (!ok) {
			munmap(p, len);
			return false;
		}
	}
	ok = pc_json(t, &r, getpid(), A(p), A(p) + len) &&
	     (json_object_array_length(json_object_object_get(r.doc, "ranges")) >=
	      2 * len / MIB - 1 ||
	      fail(t, "expected a range per touched page and per hole")) &&
	     (sanitized ? r.peak_rss_kib < base + 16 * 1024 ||
			  fail(t, "sanitized ptcompare: peak RSS %" PRIu64
			       " KiB for the mapping, %" PRIu64 " KiB for 1/16",
			       r.peak_rss_kib, base) :
			  r.peak_rss_kib < 16 * 1024 ||
			  fail(t, "ptcompare peak RSS %" PRIu64 " KiB",
			       r.peak_rss_kib));
	for (i = 0; ok && i < len; i += 256 * MIB)
		ok = oracle(t, A(p) + i, &o) &&
		     pc_check_page(t, &r, A(p) + i, &o, "match", "pte") &&
		     oracle(t, A(p) + i + PAGE, &o) &&
		     pc_check_page(t, &r, A(p) + i + PAGE, &o, "not_present",
				   "null");
	if (ok)
		printf("# memory_bounded: %sptcompare peak RSS %" PRIu64
		       " KiB for %zu pages%s\n", sanitized ? "sanitized " : "",
		       r.peak_rss_kib, len / PAGE,
		       sanitized ? " (growth over 1/16 checked)" : "");
	if (ok && sanitized)
		printf("# memory_bounded: %" PRIu64 " KiB for 1/16 of them\n",
		       base);
	pc_free(&r);
	munmap(p, len);
	return ok;
}

/* The JSON string at key of o, or "" (null or absent). */
static const char *str_at(struct json_object *o, const char *key)
{
	struct json_object *v = o ? pc_get(o, key) : NULL;

	return v && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : "";
}

/* Whether o's key is JSON null (or absent). */
static bool null_at(struct json_object *o, const char *key)
{
	struct json_object *v = o ? pc_get(o, key) : NULL;

	return !v || json_object_is_type(v, json_type_null);
}

/* ptcompare --json --faults --fault-line text: its status and faults. */
static bool pasted(struct vmtest *t, struct pc_result *r, const char *text,
		   int want, size_t faults)
{
	const char *argv[] = { "ptcompare", "--json", "--faults",
			       "--fault-line", text, NULL };
	struct json_object *a;

	memset(r, 0, sizeof(*r));
	if (!pc_run(t, r, argv))
		return false;
	r->doc = r->len && r->out[0] == '{' ? json_tokener_parse(r->out) : NULL;
	a = r->doc ? pc_get(r->doc, "faults") : NULL;
	if (r->status != want || !a || json_object_array_length(a) != faults)
		return fail(t, "exit %d (expected %d), %zu faults (expected %zu): %s %.600s",
			    r->status, want,
			    a ? json_object_array_length(a) : 0, faults,
			    r->err, r->out ? r->out : "");
	return true;
}

/* The i-th fault's live parts null, with note as the reason. */
static bool live_null(struct vmtest *t, struct pc_result *r, size_t i,
		      const char *note)
{
	struct json_object *f = json_object_array_get_idx(pc_get(r->doc, "faults"), i);
	static const char *const live[] = {
		"domain", "device_pfn", "owner", "mapping_now", "last_mapping",
	};

	if (strcmp(str_at(f, "live_note"), note))
		return fail(t, "fault %zu: live_note \"%s\", expected \"%s\"",
			    i, str_at(f, "live_note"), note);
	for (size_t k = 0; k < sizeof(live) / sizeof(live[0]); k++)
		if (!null_at(f, live[k]))
			return fail(t, "fault %zu: %s not null (%s)", i, live[k],
				    note);
	if (json_object_array_length(pc_get(f, "frame_mappings")))
		return fail(t, "fault %zu: frames mapped now (%s)", i, note);
	return true;
}

/*
 * The time in the log's clock (printk's) of a record written to
 * /dev/kmsg now, as dmesg's "[SECONDS.USEC]" into stamp[size]; false if
 * it cannot be had.
 */
static bool log_stamp_now(struct vmtest *t, char *stamp, size_t size)
{
	static const char probe[] = "<6>vmtest: the log's clock now\n";
	int rd = kmsg_from_now(t), wr;
	bool ok;
	char rec[1024];
	uint64_t us = 0;
	ssize_t n;

	if (rd < 0)
		return false;
	wr = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	ok = wr >= 0 && write(wr, probe, strlen(probe)) > 0;
	while (ok && !us && (n = read(rd, rec, sizeof(rec) - 1)) > 0) {
		rec[n] = '\0';
		if (strstr(rec, "vmtest: the log's clock now"))
			ok = kmsg_record_us(rec, &us);
	}
	close(rd);
	if (wr >= 0)
		close(wr);
	if (!us)
		return fail(t, "/dev/kmsg: no time of a record written now (%s)",
			    strerror(errno));
	snprintf(stamp, size, "[%" PRIu64 ".%06" PRIu64 "]", us / 1000000,
		 us % 1000000);
	return true;
}

/*
 * A fault line this machine logged just now, pasted, is this machine's:
 * never "not this machine", whatever the skew of the log's clock
 * (printk's) to CLOCK_BOOTTIME, which is the kernel's and so is run in
 * every lane.  Of a device the guest has not: "no such device here".
 */
VMTEST_CASE(ptcompare, "ptcompare_pasted_line_of_now", pasted_line_of_now)
{
	char here[64], text[512];
	struct pc_result r;
	bool ok;

	if (!access("/sys/bus/pci/devices/0000:ee:1f.7", F_OK))
		return fail(t, "0000:ee:1f.7 exists here: pick another absent device");
	if (!log_stamp_now(t, here, sizeof(here)))
		return false;
	snprintf(text, sizeof(text),
		 "%s DMAR: [DMA Write NO_PASID] Request device [ee:1f.7] fault addr 0x5000 [fault reason 0x05] PTE Write access is not set",
		 here);
	ok = pasted(t, &r, text, EXIT_MISMATCH, 1) &&
	     live_null(t, &r, 0, "no such device here");
	pc_free(&r);
	return ok;
}

/*
 * Fault lines pasted from other machines (issue 41): an AMD-Vi event
 * quoted from a mail, of a device this guest has not, and a VT-d fault
 * of a device it has, logged later after boot than the guest has been
 * up; whatever the guest's IOMMU (none here), both decode, field by
 * field, and what needs the machine where they happened is null with its
 * reason.  Then ptwalk.ko unloaded: a fault of a device the guest has
 * still decodes, "ptwalk.ko not loaded"; a line of a driver no format
 * reads is exit status 17.  ptwalk.ko is loaded again as the suite
 * loaded it.
 */
VMTEST_CASE(ptcompare, "ptcompare_fault_pasted_elsewhere", fault_pasted_elsewhere)
{
	char here[300], text[1024], bdf[32] = "";
	struct pc_result r;
	struct json_object *f;
	struct dirent *de;
	DIR *dir = opendir("/sys/bus/pci/devices");
	bool ok, unloaded = false;
	int fd;

	while (dir && (de = readdir(dir)))
		if (de->d_name[0] != '.' && !strncmp(de->d_name, "0000:", 5) &&
		    strlen(de->d_name) == 12) {
			snprintf(bdf, sizeof(bdf), "%s", de->d_name);
			break;
		}
	if (dir)
		closedir(dir);
	if (!bdf[0])
		return fail(t, "no PCI device in segment 0000 in this guest");
	if (!access("/sys/bus/pci/devices/0000:ee:1f.7", F_OK))
		return fail(t, "0000:ee:1f.7 exists here: pick another absent device");
	snprintf(here, sizeof(here),
		 "[99999999.000001] DMAR: [DMA Write NO_PASID] Request device [%s] fault addr 0x5000 [fault reason 0x05] PTE Write access is not set",
		 bdf + 5);
	snprintf(text, sizeof(text),
		 "> [Fri Aug 28 16:55:06 2020] iommu ivhd0: AMD-Vi: Event logged\n"
		 "> [ILLEGAL_DEV_TABLE_ENTRY device=ee:1f.7 pasid=0x00000 address=0xffff2420\n"
		 "> flags=0x0080]\n%s", here);
	ok = pasted(t, &r, text, EXIT_MISMATCH, 2);
	f = ok ? json_object_array_get_idx(pc_get(r.doc, "faults"), 0) : NULL;
	if (ok && (strcmp(str_at(f, "iommu"), "amd-vi") ||
		   strcmp(str_at(f, "device"), "0000:ee:1f.7") ||
		   strcmp(str_at(f, "iommu_device"), "ivhd0") ||
		   strcmp(str_at(f, "reason"), "ILLEGAL_DEV_TABLE_ENTRY") ||
		   strcmp(str_at(f, "iova"), "0xffff2420") ||
		   strcmp(str_at(f, "flags"), "0x80") ||
		   strcmp(str_at(f, "pasid"), "0x0") ||
		   strcmp(str_at(f, "wall_time"), "Fri Aug 28 16:55:06 2020")))
		ok = fail(t, "the AMD-Vi event decoded as %s",
			  json_object_to_json_string(f));
	ok = ok && live_null(t, &r, 0, "no such device here");
	f = ok ? json_object_array_get_idx(pc_get(r.doc, "faults"), 1) : NULL;
	if (ok && (strcmp(str_at(f, "iommu"), "vt-d") ||
		   strcmp(str_at(f, "device"), bdf) ||
		   strcmp(str_at(f, "format"), "5.15+") ||
		   strcmp(str_at(f, "reason_code"), "0x5") ||
		   strcmp(str_at(f, "time"), "99999999.000001")))
		ok = fail(t, "the VT-d fault decoded as %s",
			  json_object_to_json_string(f));
	ok = ok && live_null(t, &r, 1, "not this machine");
	pc_free(&r);
	/* the same machine, ptwalk.ko not loaded */
	if (ok && syscall(SYS_delete_module, "ptwalk", O_NONBLOCK))
		ok = fail(t, "rmmod ptwalk: %s", strerror(errno));
	unloaded = ok;
	snprintf(text, sizeof(text),
		 "DMAR: [DMA Read NO_PASID] Request device [%s] fault addr 0x6000 [fault reason 0x06] PTE Read access is not set",
		 bdf + 5);
	ok = ok && pasted(t, &r, text, EXIT_MISMATCH, 1);
	f = ok ? json_object_array_get_idx(pc_get(r.doc, "faults"), 0) : NULL;
	if (ok && (strcmp(str_at(f, "device"), bdf) ||
		   strcmp(str_at(f, "access"), "read")))
		ok = fail(t, "without ptwalk.ko: %s", json_object_to_json_string(f));
	ok = ok && live_null(t, &r, 0, "ptwalk.ko not loaded");
	pc_free(&r);
	/* an Arm board's SMMU: decoded here too, nothing of it here */
	ok = ok && pasted(t, &r, "arm-smmu 15000000.iommu: Unhandled context fault: fsr=0x402, iova=0x12345000, fsynr=0x1, cbfrsynra=0x21, cb=3",
			  EXIT_MISMATCH, 1);
	f = ok ? json_object_array_get_idx(pc_get(r.doc, "faults"), 0) : NULL;
	if (ok && (strcmp(str_at(f, "iommu"), "arm-smmu") ||
		   strcmp(str_at(f, "iova"), "0x12345000")))
		ok = fail(t, "arm-smmu line: %s", json_object_to_json_string(f));
	ok = ok && live_null(t, &r, 0, "no such device here");
	pc_free(&r);
	/* the same line cut short, as a paste can: undecoded, never "none" */
	ok = ok && pasted(t, &r, "arm-smmu 15000000.iommu: Unhandled context fault: fsr=0x402, iova=0x12345000, fsynr=0x1, cbfrsynra=0x21, cb",
			  EXIT_FAULT_UNDECODED, 0);
	if (ok && !strstr(r.err, "please report this line"))
		ok = fail(t, "undecoded, and stderr said: %s", r.err);
	pc_free(&r);
	if (unloaded) {
		fd = open("/lib/ptwalk.ko", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
			ok = fail(t, "insmod /lib/ptwalk.ko: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return ok;
}
