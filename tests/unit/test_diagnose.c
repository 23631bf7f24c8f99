// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "../../user/diagnose.h"

static void open_errors(void **state)
{
	char msg[256];

	(void)state;
	assert_int_equal(diagnose_open(ENOENT, MODULE_NOT_LOADED, "/d", msg,
				       sizeof(msg)), EXIT_NO_MODULE);
	assert_non_null(strstr(msg, "insmod ptwalk.ko"));
	assert_int_equal(diagnose_open(ENOENT, MODULE_LOADED, "/d", msg,
				       sizeof(msg)), EXIT_NO_MODULE);
	assert_non_null(strstr(msg, "mount -t debugfs none /d"));
	assert_int_equal(diagnose_open(ENOENT, MODULE_STATE_UNKNOWN, "/d", msg,
				       sizeof(msg)), EXIT_NO_MODULE);
	assert_int_equal(diagnose_open(EACCES, MODULE_LOADED, "/d", msg,
				       sizeof(msg)), EXIT_PRIVILEGE);
	assert_non_null(strstr(msg, "root"));
	assert_int_equal(diagnose_open(EPERM, MODULE_LOADED, "/d", msg,
				       sizeof(msg)), EXIT_PRIVILEGE);
	assert_int_equal(diagnose_open(EIO, MODULE_LOADED, "/d", msg,
				       sizeof(msg)), EXIT_INTERNAL);
}

static void query_errors_are_distinct(void **state)
{
	static const struct {
		int err;
		enum exit_status status;
		const char *needle;
	} cases[] = {
		{ ESRCH, EXIT_NO_TARGET, "no process 42" },
		{ ENXIO, EXIT_NO_MM, "kernel thread" },
		{ ERANGE, EXIT_USAGE, "--range" },
		{ EPERM, EXIT_PRIVILEGE, "CAP_SYS_ADMIN" },
		{ EPROTO, EXIT_INTERNAL, "ABI" },
		{ ENOMEM, EXIT_INTERNAL, "failed" },
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
	};

	return cmocka_run_group_tests_name("diagnose", tests, NULL, NULL);
}
