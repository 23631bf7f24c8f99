// SPDX-License-Identifier: GPL-2.0
/*
 * ptwalk: walks a task's page tables itself and reports the frames, leaf
 * levels and entry bits it finds, VM_PFNMAP and VM_IO mappings included,
 * through <debugfs>/ptwalk/.  See ptwalk_abi.h for the interface.
 */
#include <linux/build_bug.h>
#include <linux/module.h>
#include "debugfs.h"
#include "ptwalk_abi.h"
#include "ptwalk_version.h"

static int __init ptwalk_init(void)
{
	int ret;

	BUILD_BUG_ON(sizeof(struct ptwalk_request) != PTWALK_REQUEST_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_record) != PTWALK_RECORD_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_vtop) != PTWALK_VTOP_SIZE);
	ret = ptwalk_debugfs_init();
	if (ret)
		pr_err("ptwalk: cannot create the debugfs files (%d): is debugfs enabled and lockdown off?\n",
		       ret);
	return ret;
}

static void __exit ptwalk_exit(void)
{
	ptwalk_debugfs_exit();
}

module_init(ptwalk_init);
module_exit(ptwalk_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Walk a task's page tables and export its frames through debugfs");
MODULE_AUTHOR("The ptwalk developers");
MODULE_VERSION(PTWALK_VERSION);
