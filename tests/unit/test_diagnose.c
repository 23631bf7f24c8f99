// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "report/diagnose.h"

static void open_errors(void **state)
{
	char msg[256];

	(void)state;
	assert_int_equal(diagnose_open(ENOENT, MODULE_NOT_LOADED, "/d", msg,
				       sizeof(msg)), FAIL_NO_MODULE);
	assert_non_null(strstr(msg, "insmod ptwalk.ko"));
	assert_int_equal(diagnose_open(ENOENT, MODULE_LOADED, "/d", msg,
				       sizeof(msg)), FAIL_NO_MODULE);
	assert_non_null(strstr(msg, "mount -t debugfs none /d"));
	assert_int_equal(diagnose_open(ENOENT, MODULE_STATE_UNKNOWN, "/d", msg,
				       sizeof(msg)), FAIL_NO_MODULE);
	assert_int_equal(diagnose_open(EACCES, MODULE_LOADED, "/d", msg,
				       sizeof(msg)), FAIL_PRIVILEGE);
	assert_non_null(strstr(msg, "root"));
	assert_int_equal(diagnose_open(EPERM, MODULE_LOADED, "/d", msg,
				       sizeof(msg)), FAIL_PRIVILEGE);
	assert_non_null(strstr(msg, "CAP_SYS_ADMIN"));
	assert_non_null(strstr(msg, "lockdown"));
	assert_int_equal(diagnose_open(EIO, MODULE_LOADED, "/d", msg,
				       sizeof(msg)), FAIL_INTERNAL);
}

static void proc_and_scan_errors(void **state)
{
	char msg[256];

	(void)state;
	assert_int_equal(diagnose_proc_open(ENOENT, 7, "maps", msg,
					    sizeof(msg)), FAIL_NO_TARGET);
	assert_non_null(strstr(msg, "no process 7"));
	assert_int_equal(diagnose_proc_open(EACCES, 7, "pagemap", msg,
					    sizeof(msg)), FAIL_PRIVILEGE);
	assert_non_null(strstr(msg, "/proc/7/pagemap"));
	assert_non_null(strstr(msg, "root"));
	assert_int_equal(diagnose_proc_open(EIO, 7, "maps", msg, sizeof(msg)),
			 FAIL_INTERNAL);
	/* Gone mid-scan: ESRCH, or any error once the process is gone. */
	assert_int_equal(diagnose_scan(ESRCH, 7, 1, msg, sizeof(msg)),
			 FAIL_EXITED);
	assert_non_null(strstr(msg, "exited during the scan"));
	assert_int_equal(diagnose_scan(EIO, 7, 0, msg, sizeof(msg)),
			 FAIL_EXITED);
	assert_int_equal(diagnose_scan(EPROTO, 7, 1, msg, sizeof(msg)),
			 FAIL_INTERNAL);
	assert_non_null(strstr(msg, "bug"));
	assert_int_equal(diagnose_scan(EIO, 7, 1, msg, sizeof(msg)),
			 FAIL_INTERNAL);
	assert_non_null(strstr(msg, "Input/output error"));
	assert_null(strchr(msg, '\n'));
}

static void query_errors_are_distinct(void **state)
{
	static const struct {
		int err;
		enum failure status;
		const char *needle;
	} cases[] = {
		{ ESRCH, FAIL_NO_TARGET, "no process 42" },
		{ ENXIO, FAIL_NO_MM, "kernel thread" },
		{ ERANGE, FAIL_USAGE, "--range" },
		{ EPERM, FAIL_PRIVILEGE, "CAP_SYS_ADMIN" },
		{ EPROTO, FAIL_INTERNAL, "ABI" },
		{ ENOMEM, FAIL_INTERNAL, "failed" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char msg[256];

		assert_int_equal(diagnose_query(cases[i].err, 42, msg,
						sizeof(msg)), cases[i].status);
		assert_non_null(strstr(msg, cases[i].needle));
		assert_null(strchr(msg, '\n'));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(open_errors),
		cmocka_unit_test(query_errors_are_distinct),
		cmocka_unit_test(proc_and_scan_errors),
	};

	return cmocka_run_group_tests_name("diagnose", tests, NULL, NULL);
}
