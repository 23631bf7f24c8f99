// SPDX-License-Identifier: GPL-2.0
/*
 * ptwalk: walks a task's page tables itself and reports the frames, leaf
 * levels and entry bits it finds, VM_PFNMAP and VM_IO mappings included,
 * through <debugfs>/ptwalk/ and /dev/ptwalk.  See ptwalk_abi.h for the
 * interface.
 */
#include <linux/build_bug.h>
#include <linux/module.h>
#include "chardev.h"
#include "debugfs.h"
#include "dma_track.h"
#include "ptwalk_abi.h"
#include "recorder.h"
#include "ptwalk_version.h"

/*
 * What this kernel's configuration leaves out and the module does without
 * (make check-configs builds each): modinfo's "lacks" names the options
 * before the module is loaded, a line at load what is missing, and
 * ptwalk_info.features leaves out their bits.  Without debugfs the files'
 * creation fails, which ptwalk_init() says.
 */
#if !IS_ENABLED(CONFIG_IOMMU_API)
MODULE_INFO(lacks, "CONFIG_IOMMU_API");
#endif
#if !IS_ENABLED(CONFIG_TRACEPOINTS)
MODULE_INFO(lacks, "CONFIG_TRACEPOINTS");
#endif
#if !IS_ENABLED(CONFIG_DEBUG_FS)
MODULE_INFO(lacks, "CONFIG_DEBUG_FS");
#endif

static void __init ptwalk_say_lacks(void)
{
	if (!IS_ENABLED(CONFIG_IOMMU_API))
		pr_notice("ptwalk: the kernel has no IOMMU API (CONFIG_IOMMU_API): no device view, no IOMMU events\n");
	else if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		pr_notice("ptwalk: the kernel has no tracepoints (CONFIG_TRACEPOINTS): no IOMMU events\n");
}

static int __init ptwalk_init(void)
{
	int ret;

	BUILD_BUG_ON(sizeof(struct ptwalk_info) != PTWALK_INFO_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_range_query) !=
		     PTWALK_RANGE_QUERY_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_vtop_query) !=
		     PTWALK_VTOP_QUERY_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_task_query) !=
		     PTWALK_TASK_QUERY_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_iommu_query) !=
		     PTWALK_IOMMU_QUERY_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_record) != PTWALK_RECORD_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_record_ext) !=
		     PTWALK_RECORD_EXT_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_vtop) != PTWALK_VTOP_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_iommu_record) !=
		     PTWALK_IOMMU_RECORD_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_task) != PTWALK_TASK_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_events_query) !=
		     PTWALK_EVENTS_QUERY_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_iommu_event) !=
		     PTWALK_IOMMU_EVENT_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_dma_track) != PTWALK_DMA_TRACK_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_frame_file) != PTWALK_FRAME_FILE_SIZE);
	BUILD_BUG_ON(sizeof(struct ptwalk_dma_query) != PTWALK_DMA_QUERY_SIZE);
	BUILD_BUG_ON(offsetofend(struct ptwalk_dma_query, tracked_ns) !=
		     PTWALK_DMA_QUERY_SIZE_V1);
	BUILD_BUG_ON(sizeof(struct ptwalk_dma_mapping) !=
		     PTWALK_DMA_MAPPING_SIZE);
	ptwalk_say_lacks();
	/*
	 * The recorder first: events are kept from load on, and a module
	 * that cannot keep them says so (ptwalk_info.features) rather than
	 * failing to load.
	 */
	ret = ptwalk_recorder_init();
	if (ret)
		pr_notice("ptwalk: no IOMMU event recorder (%d)\n", ret);
	/* before /dev/ptwalk: a DMA query finds the tracepoints looked up */
	ptwalk_dma_track_init();
	/*
	 * The device alone is enough: debugfs may be disabled (debugfs=off,
	 * CONFIG_DEBUG_FS=n), and under lockdown its files cannot be used.
	 */
	ret = ptwalk_debugfs_init();
	if (ret)
		pr_notice("ptwalk: no debugfs files (%d): only /dev/%s answers\n",
			  ret, PTWALK_DEVICE_NAME);
	ret = ptwalk_chardev_init();
	if (ret) {
		pr_err("ptwalk: cannot register /dev/%s (%d)\n",
		       PTWALK_DEVICE_NAME, ret);
		ptwalk_debugfs_exit();
		ptwalk_dma_track_exit();
		ptwalk_recorder_exit();
		return ret;
	}
	return 0;
}

static void __exit ptwalk_exit(void)
{
	ptwalk_dma_track_exit();
	ptwalk_chardev_exit();
	ptwalk_debugfs_exit();
	ptwalk_recorder_exit();
}

module_init(ptwalk_init);
module_exit(ptwalk_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Walk a task's page tables and export its frames through debugfs and /dev/ptwalk");
MODULE_AUTHOR("The ptwalk developers");
MODULE_VERSION(PTWALK_VERSION);
