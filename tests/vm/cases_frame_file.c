// SPDX-License-Identifier: GPL-2.0
/*
 * PTWALK_IOC_FRAME_FILE (module/frame_file.c) against what the test knows
 * of the file: its inode and device from fstat(), the offset it wrote at,
 * and the frame from the fixture's oracle.  A page at a nonzero offset of
 * a tmpfs file, and base pages inside a 2M hugetlbfs page at a nonzero
 * offset of its file, whose folio's index counts huge pages while the
 * answer counts kernel pages.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "vmtest.h"

#define HUGE_2M		(2ULL << 20)

/*
 * The answer for the page at off of the file fd, mapped at base: the
 * file's inode, device and type, off in kernel pages, and a path that
 * ends with name.
 */
static bool names_file(struct vmtest *t, int qfd, int fd, char *base,
		       uint64_t off, const char *fstype, const char *name)
{
	struct ptwalk_fixture_translate o;
	struct ptwalk_frame_file ff;
	struct stat st;
	size_t pl, nl = strlen(name);
	int err;

	if (fstat(fd, &st))
		return fail(t, "fstat: %s", strerror(errno));
	if (!oracle(t, A(base + off), &o))
		return false;
	if (o.status != PTWALK_FIXTURE_MAPPED)
		return fail(t, "offset 0x%" PRIx64 ": not present", off);
	err = ptwalk_frame_file(qfd, o.pfn, &ff);
	if (err)
		return fail(t, "PTWALK_IOC_FRAME_FILE pfn 0x%" PRIx64 ": %s",
			    (uint64_t)o.pfn, strerror(-err));
	pl = strnlen(ff.path, sizeof(ff.path));
	if (ff.ino != (uint64_t)st.st_ino || ff.dev != (uint32_t)st.st_dev ||
	    ff.index != off / PAGE || strcmp(ff.fstype, fstype) ||
	    pl < nl || strcmp(ff.path + pl - nl, name))
		return fail(t, "pfn 0x%" PRIx64 " at offset 0x%" PRIx64
			    ": ino %" PRIu64 " dev 0x%x index %" PRIu64
			    " %s:%s, expected ino %" PRIu64 " dev 0x%x index %"
			    PRIu64 " %s:...%s", (uint64_t)o.pfn, off,
			    (uint64_t)ff.ino, ff.dev, (uint64_t)ff.index,
			    ff.fstype, ff.path, (uint64_t)st.st_ino,
			    (uint32_t)st.st_dev, off / PAGE, fstype, name);
	printf("# offset 0x%" PRIx64 ": pfn 0x%" PRIx64 " is %s:%s, index %"
	       PRIu64 ", flags 0x%x\n", off, (uint64_t)o.pfn, ff.fstype,
	       ff.path, (uint64_t)ff.index, ff.path_flags);
	return true;
}

/* A tmpfs file's third page, mapped shared and written. */
VMTEST_CASE(memory, "frame_file_tmpfs_offset", frame_file_tmpfs_offset)
{
	char path[] = "/tmp/ptwalk-ff-XXXXXX";
	char *p = MAP_FAILED;
	int fd = mkstemp(path), qfd = -1;
	bool ok;

	if (fd < 0)
		return fail(t, "mkstemp: %s", strerror(errno));
	ok = !ftruncate(fd, 4 * PAGE) ||
	     fail(t, "ftruncate: %s", strerror(errno));
	if (ok)
		p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
			 fd, 0);
	if (ok && p == MAP_FAILED)
		ok = fail(t, "mmap: %s", strerror(errno));
	if (ok) {
		p[2 * PAGE] = 1;
		qfd = vm_open_query(t);
		ok = qfd >= 0 &&
		     names_file(t, qfd, fd, p, 2 * PAGE, "tmpfs",
				strrchr(path, '/'));
	}
	if (qfd >= 0)
		close(qfd);
	if (p != MAP_FAILED)
		munmap(p, 4 * PAGE);
	close(fd);
	unlink(path);
	return ok;
}

/*
 * A file of two 2M pages on a hugetlbfs mounted for the case, mapped
 * shared: base pages of the second huge page, at its start and inside
 * it, and one inside the first, are at their own offsets in the file.
 */
VMTEST_CASE(memory, "frame_file_hugetlb_offset", frame_file_hugetlb_offset)
{
	const uint64_t len = 2 * HUGE_2M;
	char dir[] = "/tmp/ptwalk-hugetlbfs-XXXXXX", path[64];
	char *p = MAP_FAILED;
	int fd = -1, qfd = -1;
	bool ok;

	if (!mkdtemp(dir))
		return fail(t, "mkdtemp: %s", strerror(errno));
	ok = !mount("none", dir, "hugetlbfs", 0, "pagesize=2M") ||
	     fail(t, "mount hugetlbfs (pagesize=2M) on %s: %s", dir,
		  strerror(errno));
	snprintf(path, sizeof(path), "%s/ff", dir);
	if (ok) {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
		ok = fd >= 0 || fail(t, "open %s: %s", path, strerror(errno));
	}
	ok = ok && (!ftruncate(fd, (off_t)len) ||
		    fail(t, "ftruncate 4M: %s", strerror(errno)));
	if (ok)
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ok && p == MAP_FAILED)
		ok = fail(t, "mmap: %s (2M hugetlb pages free?)", strerror(errno));
	if (ok) {
		memset(p, 0x5f, len);
		qfd = vm_open_query(t);
		ok = qfd >= 0 &&
		     names_file(t, qfd, fd, p, HUGE_2M, "hugetlbfs", "/ff") &&
		     names_file(t, qfd, fd, p, HUGE_2M + 5 * PAGE, "hugetlbfs",
				"/ff") &&
		     names_file(t, qfd, fd, p, 3 * PAGE, "hugetlbfs", "/ff");
	}
	if (qfd >= 0)
		close(qfd);
	if (p != MAP_FAILED)
		munmap(p, len);
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	umount(dir);
	rmdir(dir);
	return ok;
}
