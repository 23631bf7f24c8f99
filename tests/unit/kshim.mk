# The unit tests of kernel code (module/), built in userspace against the
# few kernel headers tests/unit/kshim stands in for (tests/unit/kshim-riscv64:
# riscv64's entry bits as the kernel defines them).  Included by the top
# Makefile (plain build) and tests/fuzz/Makefile (ASan+UBSan):
#   $(call kshim_tests,DIR,COMPILER AND FLAGS)
# gives the rules of DIR/unit/test_NAME for each of them.
KSHIM_TESTS := extent arch_riscv64 iommu_frames iommu_policy arm64_levels recorder_ring dma_table
KSHIM_HDRS := $(wildcard tests/unit/kshim/linux/*.h tests/unit/kshim/asm/*.h)

# module/extent.c, kernel code that needs no kernel
KSHIM_SRCS_extent := tests/unit/test_extent.c module/extent.c
KSHIM_DEPS_extent := module/extent.h module/ptwalk_abi.h
# module/arch_riscv64.h's decoding (the kernel does not warn about unused
# parameters, nor does this build)
KSHIM_SRCS_arch_riscv64 := tests/unit/test_arch_riscv64.c
KSHIM_DEPS_arch_riscv64 := module/arch_riscv64.h module/arch_contig.h module/ptwalk_abi.h \
	$(wildcard tests/unit/kshim-riscv64/linux/*.h)
KSHIM_FLAGS_arch_riscv64 := -Wno-unused-parameter -Itests/unit/kshim-riscv64
# module/iommu_frames.h, the device view's frame arithmetic
KSHIM_SRCS_iommu_frames := tests/unit/test_iommu_frames.c
KSHIM_DEPS_iommu_frames := module/iommu_frames.h module/ptwalk_abi.h
# module/iommu_policy.h, which domains a device-view query may read
KSHIM_SRCS_iommu_policy := tests/unit/test_iommu_policy.c
KSHIM_DEPS_iommu_policy := module/iommu_policy.h module/ptwalk_abi.h
# module/arm64_levels.h, arm64's level naming, over every configuration
KSHIM_SRCS_arm64_levels := tests/unit/test_arm64_levels.c
KSHIM_DEPS_arm64_levels := module/arm64_levels.h module/ptwalk_names.h \
	module/ptwalk_abi.h
# module/recorder_ring.h, the recorder's per-CPU rings, merge and log
KSHIM_SRCS_recorder_ring := tests/unit/test_recorder_ring.c
KSHIM_DEPS_recorder_ring := module/recorder_ring.h module/ptwalk_abi.h
KSHIM_FLAGS_recorder_ring := -pthread
# module/dma_table.h, the DMA probes' table of tracked devices
KSHIM_SRCS_dma_table := tests/unit/test_dma_table.c
KSHIM_DEPS_dma_table := module/dma_table.h

define kshim_test
$(1)/unit/test_$(3): $$(KSHIM_SRCS_$(3)) $$(KSHIM_DEPS_$(3)) $$(KSHIM_HDRS)
	@mkdir -p $$(dir $$@)
	$(2) $$(KSHIM_FLAGS_$(3)) -Itests/unit/kshim -o $$@ $$(KSHIM_SRCS_$(3)) -lcmocka
endef
kshim_tests = $(foreach t,$(KSHIM_TESTS),$(eval $(call kshim_test,$(1),$(2),$(t))))
