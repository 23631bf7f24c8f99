// SPDX-License-Identifier: GPL-2.0
/*
 * The IOMMU drivers whose fault lines are decoded, one row each, asked
 * in this order for every message; the first that answers other than
 * IOMMU_LINE_OTHER has it.  Adding a driver: its file under
 * parse/fault/ (the interface and the field readers are in
 * parse/fault/fault_driver.h), its declaration there, and its row here.
 * A driver whose tag another's lines could hold goes before that one.
 */
#include "parse/fault/fault_driver.h"

const struct fault_driver *const fault_drivers[] = {
	&fault_driver_vtd,
	&fault_driver_amd_vi,
	&fault_driver_smmu_v3,
	&fault_driver_virtio_iommu,
	&fault_driver_arm_smmu,
	&fault_driver_qcom_iommu,
	&fault_driver_riscv_iommu,
	&fault_driver_mtk_iommu,
	&fault_driver_rockchip_iommu,
	&fault_driver_ipmmu_vmsa,
	&fault_driver_apple_dart,
	&fault_driver_tegra_mc,
	&fault_driver_exynos_sysmmu,
	&fault_driver_sun50i_iommu,
};

const size_t fault_drivers_n = sizeof(fault_drivers) / sizeof(fault_drivers[0]);
