// SPDX-License-Identifier: GPL-2.0
/*
 * The ioctl numbers of ABI version 3 (module/ptwalk_abi.h), as
 * docs/interface.md states them: changing one is an ABI change.
 */
#include <linux/ioctl.h>
#include <stddef.h>
#include <stdint.h>
#include "unit.h"
#include "module/ptwalk_abi.h"

/* _IO(0xBD, n): no size, no direction, n in the order the docs list */
static void ioctl_numbers(void **state)
{
	static const unsigned long cmds[] = {
		PTWALK_IOC_INFO, PTWALK_IOC_RANGE, PTWALK_IOC_VTOP,
		PTWALK_IOC_TASK, PTWALK_IOC_IOMMU, PTWALK_IOC_EVENTS,
	};
	size_t i;

	(void)state;
	assert_int_equal(PTWALK_ABI_VERSION, 3);
	assert_int_equal(PTWALK_IOC_TYPE, 0xBD);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		assert_int_equal(_IOC_TYPE(cmds[i]), 0xBD);
		assert_int_equal(_IOC_NR(cmds[i]), i);
		assert_int_equal(_IOC_SIZE(cmds[i]), 0);
		assert_int_equal(_IOC_DIR(cmds[i]), _IOC_NONE);
	}
}

/*
 * The type is none that Documentation/userspace-api/ioctl/ioctl-number.rst
 * registers near it, from 5.10 to the newest (7.2): 0xB6 fpga-dfl, 0xB7
 * remoteproc and nsfs, 0xB8 mshv and Marvell CN10K DPI (ABI version 2's
 * type), 0xBA liveupdate, 0xC0 iowarrior; nor one proposed for it (0xB9
 * jtag, 0xBF BlueField PKA).
 */
static void type_is_unregistered(void **state)
{
	static const unsigned int taken[] = {
		0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xBF, 0xC0,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		assert_int_not_equal(PTWALK_IOC_TYPE, taken[i]);
}

UNIT_MAIN("abi_numbers", UT(ioctl_numbers), UT(type_is_unregistered))
