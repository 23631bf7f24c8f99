// SPDX-License-Identifier: GPL-2.0
/* is_writable_migration_entry(), is_write_migration_entry() renamed (5.14). */
#include <linux/swap.h>
#include <linux/swapops.h>

__typeof__(is_writable_migration_entry) *ptwalk_conftest =
	is_writable_migration_entry;
