# ptwalk: kernel module, userspace comparator, tests.
#   make                 module/ptwalk.ko and user/ptcompare
#   make check           unit tests (plain, ASan+UBSan), VM suite (plain, ASan+UBSan,
#                        TSan), fuzz targets, kernel lint, source layout, packaging;
#                        ends "N passed, N failed"
#   make check-vm-tsan   the VM suite with ptcompare built with ThreadSanitizer
#   make check-kernels   build and VM suite on Debian's 5.10, 6.1, 6.12, newest kernels
#   make demo            set up what is missing, boot the VM, show a translation
#   make bench           boot the VM and measure pagemap vs ptwalk vs ptcompare
#   make check-arm64     cross-build for arm64 and run the VM suite under qemu-system-aarch64
#                        on six kernels, 4K, 16K and 64K pages (ARM64_KERNELS, ARM64_JOBS;
#                        ARM64_KERNELS_IOMMU: the IOMMU lane too after those lanes' suites)
#   make check-iommu     the device's view: VT-d, edu bound to vfio-pci (IOMMU=amd: AMD-Vi,
#                        IOMMU=virtio: virtio-iommu; KERNEL=6.12|newest...)
#   make check-arm64-iommu  the device's view on arm64: SMMUv3, edu bound to vfio-pci
#                        (ARM64_KERNELS, default 6.1 6.12)
#   make arm64-lint      W=1 and sparse on the arm64 cross build (after make arm64-fetch; check-arm64 runs it)
#   make check-riscv64   cross-build for riscv64 and run the VM suite under qemu-system-riscv64
#                        on trixie's 6.12 and unstable's newest, Sv57, and the walk and leaf
#                        cases in Sv48 and Sv39 (RISCV64_KERNELS, RISCV64_MODES), and the
#                        newest's IOMMU lane: riscv-iommu-pci, edu's kernel driver (RISCV64_IOMMU)
#   make KDIR=/path      build against another kernel tree
#   make install         ptcompare, its man page and bash completion (PREFIX, DESTDIR)
#   make modules_install ptwalk.ko into /lib/modules/KREL/extra (INSTALL_MOD_PATH or DESTDIR)
#   make dkms-source     the module's sources to /usr/src/ptwalk-VERSION for dkms
#   make deb             build/deb/ptwalk-dkms_VERSION_all.deb, ptcompare_VERSION_ARCH.deb
#   make dist            build/ptwalk-VERSION.tar.gz, the release tarball (make deb works in it)
KDIR ?= $(shell $(CURDIR)/scripts/find-kdir.sh)
KREL = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
BUILD := $(CURDIR)/build
CC ?= cc
TEST_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g

# Userspace tests include user/ headers by their folder ("engine/compare.h").
USER_INCLUDES := -I$(CURDIR)/user -I$(CURDIR)

# Every tests/unit/test_*.c is a cmocka program; the other tests/unit/*.c
# are helpers they share, linked into each.
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(wildcard tests/unit/test_*.c))
UNIT_HELPERS := $(filter-out tests/unit/test_%.c,$(wildcard tests/unit/*.c))
# Helpers the unit, fuzz and VM tests share and ptcompare does not use.
TEST_LIB := $(wildcard tests/lib/*.c)

all: module user

module:
	@test -n "$(KDIR)" || { echo "no kernel build tree: apt-get install linux-headers-amd64, or pass KDIR=" >&2; exit 2; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

fixture:
	$(MAKE) -C $(KDIR) M=$(CURDIR) PTWALK_FIXTURE=1 modules

user:
	$(MAKE) -C user

$(BUILD)/unit/test_%: tests/unit/test_%.c $(UNIT_HELPERS) $(TEST_LIB) $(wildcard tests/unit/*.h tests/lib/*.h) user
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(USER_INCLUDES) -o $@ $< $(UNIT_HELPERS) $(TEST_LIB) user/libptcompare.a -lcmocka -ljson-c -ldl -pthread

# The unit tests of module/'s kernel code, in userspace (tests/unit/kshim.mk).
include tests/unit/kshim.mk
$(call kshim_tests,$(BUILD),$(CC) $(TEST_CFLAGS))

unit-build: user
	$(MAKE) -C user libptcompare.a
	$(MAKE) $(UNIT_BINS)

# The VM suite: every tests/vm/*.c but the demo's target (a program of its
# own), and the few user/ files it shares with ptcompare.
VMTEST_USER_SRCS := user/io/ptwalk_client.c user/model/array.c user/parse/hex.c \
	user/parse/record.c user/parse/geometry.c \
	user/model/page_class.c tests/lib/record_find.c tests/lib/vfio.c
VMTEST_SRCS := $(filter-out tests/vm/demo_target.c tests/vm/compat32.c,$(wildcard tests/vm/*.c)) \
	$(VMTEST_USER_SRCS)
# the DRM uAPI headers (libdrm-dev), for the vgem case
VMTEST_DRM_CFLAGS := $(shell pkg-config --cflags libdrm 2>/dev/null || echo -I/usr/include/libdrm)
$(BUILD)/vmtest: $(VMTEST_SRCS) $(wildcard tests/vm/*.h tests/lib/*.h) $(wildcard user/*/*.h user/*/*/*.h) module/ptwalk_abi.h tests/fixture/fixture_abi.h
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(USER_INCLUDES) $(VMTEST_DRM_CFLAGS) -static -o $@ $(VMTEST_SRCS) -ljson-c

# A 32-bit client for the x86-64 guests' compat32_* cases
# (tests/vm/cases_device.c): libc6-dev-i386 and lib32gcc-12-dev, with
# the biarch asm/ headers of the 64-bit tree after its own (gcc-multilib
# would link them, but conflicts with the cross compilers).
$(BUILD)/compat32: tests/vm/compat32.c module/ptwalk_abi.h
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -m32 -I$(CURDIR) -idirafter /usr/include/x86_64-linux-gnu -static -o $@ $<

PTBENCH_SRCS := tests/bench/ptbench.c user/parse/maps.c user/parse/record.c \
	user/io/ptwalk_client.c user/model/array.c user/parse/geometry.c \
	user/parse/hex.c tests/lib/vfio.c
$(BUILD)/ptbench: $(PTBENCH_SRCS) $(wildcard user/*/*.h user/*/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(USER_INCLUDES) -static -pthread -o $@ $(PTBENCH_SRCS)

# Benchmarks print numbers and ratios; they assert nothing.
# KERNEL=5.10|6.12|newest: on that kernel of the matrix (the sparse row's
# PAGEMAP_SCAN figure needs 6.7+: newest).  Then, on the same kernel,
# a second boot with VT-d and edu bound to vfio-pci (VM_IOMMU=1) for the
# recorder's cost (VFIO map/unmap pairs and O_DIRECT reads of a virtio
# disk, ptwalk.ko not loaded, idle, watched) and the DMA tracking's
# (6.12+: those reads with no device tracked, another, the disk itself;
# scripts/kernel-check.sh boots both for KERNEL=K).  VM_ONLY=DIGITS picks the
# first boot's targets, r in it the second boot (VM_ONLY=r: that alone).
ifeq ($(KERNEL),)
bench: all fixture $(BUILD)/ptbench
	@if [ "$(VM_ONLY)" != r ]; then \
		echo "booting Debian's $(KREL) under QEMU for the benchmark (several minutes)..."; \
		VM_MEM=8G VM_TIMEOUT=3600 scripts/vm-run.sh $(BUILD)/bench $(KREL) bench $(BUILD)/ptbench:/bin/ptbench $(CURDIR)/user/ptcompare:/bin/ptcompare; \
	fi
	@case "$(VM_ONLY)" in '' | *r*) \
		echo "booting it again with VT-d and edu bound to vfio-pci, for the recorder's cost..."; \
		VM_IOMMU=1 VM_ONLY= VM_TIMEOUT=1200 scripts/vm-run.sh $(BUILD)/bench-recorder $(KREL) bench $(BUILD)/ptbench:/bin/ptbench ;; \
	esac
else
bench: user $(BUILD)/ptbench
	KERNEL_VM_MODE=bench scripts/kernel-check.sh $(KERNEL) $(MOD_SRCS)
endif

$(BUILD)/demo_target: tests/vm/demo_target.c tests/fixture/fixture_abi.h
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -static -o $@ $<

vm-build: fixture user $(BUILD)/vmtest $(BUILD)/compat32

# Each suite writes $(BUILD)/<suite>.tap; scripts/check.sh runs them all,
# whatever fails, and prints the summary line.
check:
	KDIR=$(KDIR) scripts/check.sh

check-unit: unit-build
	scripts/run-unit.sh $(BUILD) $(UNIT_BINS)

check-lint:
	KDIR=$(KDIR) scripts/kernel-lint.sh $(BUILD)/lint.tap

# The shape of the source (tests/layout): user/'s layers include one way
# only; the man page and the docs word the classes as the code does.
$(BUILD)/class_table: tests/layout/class_table.c user/model/page_class.c user/model/page_class.h
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(USER_INCLUDES) -o $@ tests/layout/class_table.c user/model/page_class.c

check-layout: $(BUILD)/class_table
	tests/layout/run.sh $(BUILD) $(BUILD)/class_table

# Configurations (scripts/kconfigs/): ptwalk.ko built against small kernels
# from Debian's linux-source-6.1 without the IOMMU API, without tracepoints,
# without debugfs, each linking against what its kernel exports and saying
# what it lacks (modinfo lacks); the kernels are cached in
# $(BUILD)/kconfigs.  KCONFIGS=no-tracepoints: one.  $(BUILD)/configs.tap.
check-configs: module
	scripts/config-check.sh $(BUILD)/configs.tap $(MOD_SRCS)
	@scripts/tap-summary.sh $(BUILD)/configs.tap

# KERNEL=5.10|6.1|6.12|newest: that kernel of the matrix instead (Debian's,
# fetched to build/kernels/KERNEL; see check-kernels).
ifeq ($(KERNEL),)
check-vm: vm-build
	scripts/vm-run.sh $(BUILD)/vm $(KREL) test $(BUILD)/vmtest:/bin/vmtest $(CURDIR)/user/ptcompare:/bin/ptcompare $(BUILD)/compat32:/bin/compat32
	cp $(BUILD)/vm/vm.tap $(BUILD)/vm.tap
else
check-vm: user $(BUILD)/vmtest $(BUILD)/compat32
	scripts/kernel-check.sh $(KERNEL) $(MOD_SRCS)
endif

# The IOMMU lane: a VM with QEMU's VT-d and its edu device bound to
# vfio-pci (VM_IOMMU=1), running the device-view cases alone
# (tests/vm/cases_iommu.c): $(BUILD)/iommu.tap.  KERNEL=5.10|6.12|newest:
# on that kernel of the matrix (build/kernels/KERNEL/iommu-KERNEL.tap).
# IOMMU=amd|virtio: QEMU's AMD-Vi (-device amd-iommu) or virtio-iommu
# (-device virtio-iommu-pci; a kernel with CONFIG_VIRTIO_IOMMU: 6.12 and
# newest, not 6.1) instead of VT-d: $(BUILD)/iommu-IOMMU.tap,
# build/kernels/KERNEL/iommu-IOMMU-KERNEL.tap.
IOMMU ?= vtd
IOMMU_LANE := $(if $(filter vtd,$(IOMMU)),iommu,iommu-$(IOMMU))
ifeq ($(KERNEL),)
check-iommu: vm-build
	VM_IOMMU=1 VM_IOMMU_KIND=$(IOMMU) scripts/vm-run.sh $(BUILD)/$(IOMMU_LANE) $(KREL) iommu $(BUILD)/vmtest:/bin/vmtest $(CURDIR)/user/ptcompare:/bin/ptcompare
	cp $(BUILD)/$(IOMMU_LANE)/vm.tap $(BUILD)/$(IOMMU_LANE).tap
else
check-iommu: user $(BUILD)/vmtest $(BUILD)/compat32
	VM_IOMMU_KIND=$(IOMMU) KERNEL_VM_MODE=iommu scripts/kernel-check.sh $(KERNEL) $(MOD_SRCS)
endif

# The same VM suite with ptcompare's ASan+UBSan build (VM_SANITIZED=1: the
# guest sets the sanitizers' options and fails the run on any report):
# $(BUILD)/vm-asan.tap.
check-vm-asan: vm-build asan-ptcompare
	VM_SANITIZED=1 scripts/vm-run.sh $(BUILD)/vm-asan $(KREL) test $(BUILD)/vmtest:/bin/vmtest $(BUILD)/asan/ptcompare:/bin/ptcompare $(BUILD)/compat32:/bin/compat32
	cp $(BUILD)/vm-asan/vm.tap $(BUILD)/vm-asan.tap

# And with ptcompare's ThreadSanitizer build (VM_SANITIZED=tsan), for the
# --jobs threads: a data race fails the run.  That build runs the cases
# where ptcompare starts threads (TSAN_CASES), the plain one the rest.
# $(BUILD)/vm-tsan.tap.
check-vm-tsan: vm-build tsan-ptcompare
	VM_SANITIZED=tsan VM_SANITIZED_ONLY=$(TSAN_CASES) scripts/vm-run.sh $(BUILD)/vm-tsan $(KREL) test $(BUILD)/vmtest:/bin/vmtest $(BUILD)/tsan/ptcompare:/bin/ptcompare $(CURDIR)/user/ptcompare:/bin/ptcompare.plain $(BUILD)/compat32:/bin/compat32
	cp $(BUILD)/vm-tsan/vm.tap $(BUILD)/vm-tsan.tap

# --- Sanitizer lanes and fuzzing: the build rules are in tests/fuzz/Makefile.
#   make check-unit-asan  the unit suite under ASan+UBSan: build/unit-asan.tap
#   make check-fuzz       each libFuzzer target for a fixed count of inputs: build/fuzz.tap
#   make fuzz             each target for FUZZ_SECONDS (default 60), corpus kept in build/fuzz
# make check-vm-asan boots the VM suite with the sanitized ptcompare (asan-ptcompare),
# make check-vm-tsan with the ThreadSanitizer one (tsan-ptcompare);
# make check-debug DEBUG_SANITIZED=1 boots the first on the debug kernel.
SAN_MAKE = $(MAKE) -f tests/fuzz/Makefile BUILD=$(BUILD)

check-unit-asan:
	$(SAN_MAKE) check-unit-asan

check-fuzz:
	$(SAN_MAKE) check-fuzz

fuzz:
	$(SAN_MAKE) fuzz $(if $(FUZZ_SECONDS),FUZZ_SECONDS=$(FUZZ_SECONDS))

asan-ptcompare:
	$(SAN_MAKE) asan-ptcompare

tsan-ptcompare:
	$(SAN_MAKE) tsan-ptcompare

.PHONY: check-unit-asan check-fuzz fuzz asan-ptcompare tsan-ptcompare
# --- end of the sanitizer and fuzzing block

# Installing first, then a fresh make: KDIR and KREL are evaluated only
# once the kernel headers are there.
demo:
	scripts/install-deps.sh --demo
	$(MAKE) demo-run

demo-run: all fixture $(BUILD)/demo_target
	@echo "booting Debian's $(KREL) under QEMU (software emulation, about 10 s)..."
	scripts/vm-run.sh $(BUILD)/demo $(KREL) demo $(BUILD)/demo_target:/bin/demo_target $(CURDIR)/user/ptcompare:/bin/ptcompare
	@grep -q '^ok - kernel_log_clean' $(BUILD)/demo/vm.tap || { echo "demo: the kernel log has a warning, see $(BUILD)/demo/console.log" >&2; exit 1; }

# Debug kernel lane: bookworm-backports' linux-source-6.12 (the first
# release with the DMA API's tracepoints, which a kernel driver's DMA
# tracking needs: scripts/kernel-fetch.sh source-6.12) with a small config
# plus KASAN, lockdep, kmemleak, DEBUG_VM (scripts/debug-kernel.sh; the
# first build takes a while), ptwalk.ko and the fixture built against it, and the
# VM suite booting it; writes $(BUILD)/debug-vm.tap.  The modules build from
# a copy of their sources in $(DEBUG_MOD): an M= build writes its objects and
# .ko next to the sources, and the Debian-kernel build in module/ must stay
# untouched (scripts/copy-changed.sh).
DEBUG_KDIR_BUILD ?= $(BUILD)/debug-kernel
DEBUG_KDIR = $(abspath $(DEBUG_KDIR_BUILD))/linux-source-6.12
DEBUG_MOD := $(BUILD)/debug-modules
# The sources of ptwalk.ko and the fixture, for builds in a copy.
MOD_SRCS = Kbuild $(filter-out %.mod.c,$(wildcard module/Kbuild module/*.[ch] module/conftest/* tests/fixture/Kbuild tests/fixture/*.[ch]))
DEBUG_VM_TIMEOUT ?= 1500
# Seconds each race case (tests/vm/cases_races.c) runs on the debug kernel,
# where KASAN and lockdep see what a lost race does (docs/reliability.md).
DEBUG_STRESS_SECONDS ?= 40
# Cases the debug lane leaves to the plain 6.1 lane (make check-vm): their
# work is ptcompare's, not the kernel's (a terminal's progress line, --jobs'
# byte-for-byte report, ptcompare's peak RSS, a fault line pasted from
# another machine), and on the debug kernel they
# took 79 of its 464 s (# time lines of build/debug-vm/guest.log); and the
# cases of vgem and vivid, drivers this kernel leaves out
# (scripts/debug-kernel.config).
# And iommu_none_, the case of a machine without an IOMMU: this lane's has
# one (below); and compat32_, 32-bit clients, which this kernel cannot run
# (no IA32 emulation); and caps_fd_passed_, which hands the file over a
# Unix socket, which this kernel leaves out (caps_dropped_after_open
# checks the same per-call rule there).  And dma_driver_, real drivers
# under load: scripts/vm-run.sh gives their devices to the IOMMU lane's
# own boot (MODE iommu), not to this one.
PTCOMPARE_OWN_CASES := ptcompare_progress_line,ptcompare_jobs_,ptcompare_memory_bounded,ptcompare_fault_pasted
# The cases where ptcompare starts threads (--jobs, --all and --phys
# workers) or handles a signal (--watch): ThreadSanitizer's build runs
# these, the plain build the rest of its lane's suite (vm-run.sh's
# VM_SANITIZED_ONLY): with one thread it checks nothing, three times slower.
TSAN_CASES := $(PTCOMPARE_OWN_CASES),all_,phys_,watch_
DEBUG_SKIP ?= $(PTCOMPARE_OWN_CASES),dmainfo_vgem_,dmainfo_vivid_,iommu_none_,compat32_,caps_fd_passed_,dma_driver_

debug-kernel:
	scripts/kernel-fetch.sh source-6.12
	. $(CURDIR)/build/kernels/source-6.12/kernel.env && \
		LINUX_SOURCE_TARBALL=$$SOURCE_TARBALL scripts/debug-kernel.sh $(DEBUG_KDIR_BUILD)

debug-modules: debug-kernel
	@scripts/copy-changed.sh $(DEBUG_MOD) $(MOD_SRCS)
	$(MAKE) -C $(DEBUG_KDIR) M=$(DEBUG_MOD) PTWALK_FIXTURE=1 modules

# DEBUG_SANITIZED=1: ptcompare is the ASan+UBSan build (VM_SANITIZED=1: the
# guest sets the sanitizers' options and fails the run on any report), so
# that every ptcompare case of the VM suite runs sanitized without a boot of
# its own.  Not CI's default yet: on a loaded machine that run was slow
# enough to exceed the timeout and to widen a race window of
# thp_split_to_ptes (docs/testing.md).
DEBUG_SANITIZED ?=
DEBUG_PTCOMPARE = $(if $(DEBUG_SANITIZED),$(BUILD)/asan/ptcompare,$(CURDIR)/user/ptcompare)
# The debug kernel has no loadable modules (zram, vgem, vivid are built in):
# its module tree for vm-run.sh is its modules.builtin and an empty
# modules.dep.
DEBUG_MODTREE := $(BUILD)/debug-modtree
# no5lvl: 4-level paging on the debug kernel.  6.1 enables interrupts
# before arch_cpu_finalize_init() identifies the boot CPU, and
# identify_cpu() clears x86_capability while it does; an interrupt in that
# window sees LA57 off, so KASAN's shadow bounds (__VIRTUAL_MASK_SHIFT,
# from pgtable_l5_enabled()) put the 5-level direct map outside them:
# "BUG: KASAN: wild-memory-access in do_raw_spin_lock" from
# handle_edge_irq at 0.005 s, in 2 of 20 boots under TCG (once in CI).
# Debian's kernels, without KASAN, still boot with LA57 (-cpu max).
DEBUG_APPEND := no5lvl
# The suite runs on a machine with VT-d and edu (VM_IOMMU=1), and the IOMMU
# lane's cases follow it in the same boot: one boot and one pair of
# kmemleak scans instead of two (make check-debug-iommu boots the IOMMU
# lane alone).
check-debug: debug-modules $(if $(DEBUG_SANITIZED),asan-ptcompare,user) $(BUILD)/vmtest
	mkdir -p $(DEBUG_MODTREE) && cp $(DEBUG_KDIR)/modules.builtin $(DEBUG_MODTREE)/ && : > $(DEBUG_MODTREE)/modules.dep
	krel=$$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(DEBUG_KDIR)/include/generated/utsrelease.h) && \
	VM_KERNEL=$(DEBUG_KDIR)/arch/x86/boot/bzImage VM_KO_DIR=$(DEBUG_MOD) VM_MODTREE=$(DEBUG_MODTREE) VM_TIMEOUT=$(DEBUG_VM_TIMEOUT) VM_STRESS_SECONDS=$(DEBUG_STRESS_SECONDS) VM_SKIP=$(DEBUG_SKIP) VM_DRIVERS= VM_APPEND=$(DEBUG_APPEND) VM_IOMMU=1 $(if $(DEBUG_SANITIZED),VM_SANITIZED=1) \
		scripts/vm-run.sh $(BUILD)/debug-vm $$krel test $(BUILD)/vmtest:/bin/vmtest $(DEBUG_PTCOMPARE):/bin/ptcompare
	cp $(BUILD)/debug-vm/vm.tap $(BUILD)/debug-vm.tap
	scripts/tap-summary.sh $(BUILD)/debug-vm.tap

# The IOMMU lane on the debug kernel (VT-d and VFIO built in): its churn
# case for DEBUG_STRESS_SECONDS under KASAN, lockdep and kmemleak;
# $(BUILD)/debug-iommu.tap.  In 2G: kmemleak's two scans took 54 s there,
# 86 s with 4G (and 197 s with the 1G page the IOMMU lane no longer
# reserves: scripts/vm-run.sh).
check-debug-iommu: debug-modules user $(BUILD)/vmtest
	mkdir -p $(DEBUG_MODTREE) && cp $(DEBUG_KDIR)/modules.builtin $(DEBUG_MODTREE)/ && : > $(DEBUG_MODTREE)/modules.dep
	krel=$$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(DEBUG_KDIR)/include/generated/utsrelease.h) && \
	VM_IOMMU=1 VM_KERNEL=$(DEBUG_KDIR)/arch/x86/boot/bzImage VM_KO_DIR=$(DEBUG_MOD) VM_MODTREE=$(DEBUG_MODTREE) VM_TIMEOUT=$(DEBUG_VM_TIMEOUT) VM_STRESS_SECONDS=$(DEBUG_STRESS_SECONDS) VM_DRIVERS= VM_APPEND=$(DEBUG_APPEND) VM_MEM=2G \
		scripts/vm-run.sh $(BUILD)/debug-iommu $$krel iommu $(BUILD)/vmtest:/bin/vmtest $(CURDIR)/user/ptcompare:/bin/ptcompare
	cp $(BUILD)/debug-iommu/vm.tap $(BUILD)/debug-iommu.tap
	scripts/tap-summary.sh $(BUILD)/debug-iommu.tap

.PHONY: debug-kernel debug-modules check-debug check-debug-iommu

# arm64 lanes (issues 13, 21): Debian's current arm64 kernel, its headers and
# the guest's libraries fetched into $(ARM64) (scripts/arm64-fetch.sh);
# ptwalk.ko, the fixture, ptcompare and vmtest cross-built there, from
# copies of their sources (scripts/copy-changed.sh), never mixed with this
# tree's x86-64 objects; the VM suite booting that kernel under
# qemu-system-aarch64.  make check-arm64 runs it all (scripts/arm64-check.sh)
# and writes $(BUILD)/arm64.tap.
# ARM64_LANE=6.12|6.12-16k|newest|newest-16k|64k: the module, fixture, lint
# and VM targets below for another kernel (scripts/arm64-check.sh writes
# its $(ARM64_LANE_DIR)/env.mk from build/kernels/arm64-LANE/kernel.env),
# with the same ptcompare, vmtest and guest libraries as 6.1's; the
# newest ones build in the unstable chroot (ARM64_CHROOT), where their
# modules' copy lives.
ARM64 := $(CURDIR)/build/arm64
-include $(ARM64)/env.mk
ARM64_LANE ?= 6.1
ifneq ($(ARM64_LANE),6.1)
ARM64_LANE_DIR := $(CURDIR)/build/arm64-lanes/$(ARM64_LANE)
-include $(ARM64_LANE_DIR)/env.mk
endif
ARM64_OUT = $(if $(ARM64_LANE_DIR),$(ARM64_LANE_DIR),$(ARM64))
# the modules' copies: where they are on this machine, and as make sees them
ARM64_MODS_IN = $(if $(ARM64_CHROOT),/ptwalk-arm64/$(ARM64_LANE),$(ARM64_OUT))
ARM64_MODS = $(ARM64_CHROOT)$(ARM64_MODS_IN)
ARM64_CROSS ?= aarch64-linux-gnu-
ARM64_CC = $(ARM64_CROSS)gcc -I$(ARM64_SYSROOT)/usr/include -L$(ARM64_SYSROOT)/usr/lib/aarch64-linux-gnu
# In the chroot with its own /proc (as scripts/kernel-lint.sh runs it).
ARM64_KMAKE = $(if $(ARM64_CHROOT),unshare --mount --propagation private sh -c 'mount -t proc proc "$$0/proc" && exec chroot "$$0" make "$$@"' $(ARM64_CHROOT),$(MAKE))
ARM64_MAKE = $(ARM64_KMAKE) -C $(ARM64_KDIR) ARCH=arm64 CROSS_COMPILE=$(ARM64_CROSS) $(if $(ARM64_KCC),CC=$(ARM64_KCC))
ARM64_MOD_SRCS = Kbuild $(filter-out %.mod.c,$(wildcard module/Kbuild module/*.[ch] module/conftest/* tests/fixture/Kbuild tests/fixture/*.[ch]))
ARM64_USER_SRCS = $(shell find user -name '*.[ch]' -o -name Makefile) $(wildcard module/*.h)
ARM64_VM_TIMEOUT ?= 1800

arm64-fetch:
	scripts/arm64-fetch.sh $(ARM64)

arm64-need-fetch:
	@test -n "$(ARM64_KDIR)" || { echo "no $(ARM64)/env.mk: make arm64-fetch first" >&2; exit 2; }
	@test "$(ARM64_LANE)" = 6.1 || test -n "$(ARM64_LANE_KREL)" || { echo "no $(ARM64_LANE_DIR)/env.mk: make check-arm64 ARM64_KERNELS=$(ARM64_LANE) writes it" >&2; exit 2; }

# A cross lane's kernel builds, $(call cross_kbuild,LANE,VAR,NEED):
# LANE-module and LANE-fixture, and LANE-lint, W=1 and sparse (C=2) in a
# copy of its own, from clean objects (the compiler warns only about what
# it compiles), any warning failing it (-Werror, -Wsparse-error); each
# from the copy of the sources in $(VAR_MODS) (make sees it at
# $(VAR_MODS_IN)), built with $(VAR_MAKE), after NEED.
define cross_kbuild
$(1)-module: $(3)
	@scripts/copy-changed.sh $$($(2)_MODS)/modules $$(ARM64_MOD_SRCS)
	$$($(2)_MAKE) M=$$($(2)_MODS_IN)/modules/module modules

$(1)-fixture: $(3)
	@scripts/copy-changed.sh $$($(2)_MODS)/modules $$(ARM64_MOD_SRCS)
	$$($(2)_MAKE) M=$$($(2)_MODS_IN)/modules/tests/fixture modules

$(1)-lint: $(3)
	@scripts/copy-changed.sh $$($(2)_MODS)/lint $$(ARM64_MOD_SRCS)
	find $$($(2)_MODS)/lint/module $$($(2)_MODS)/lint/tests/fixture -name '*.o' -type f -delete
	$$($(2)_MAKE) M=$$($(2)_MODS_IN)/lint PTWALK_FIXTURE=1 W=1 C=2 \
		KCFLAGS=-Werror CF=-Wsparse-error modules
endef
$(eval $(call cross_kbuild,arm64,ARM64,arm64-need-fetch))

arm64-user: arm64-need-fetch
	@scripts/copy-changed.sh $(ARM64)/src $(ARM64_USER_SRCS)
	$(MAKE) -C $(ARM64)/src/user CC="$(ARM64_CC)" ptcompare

arm64-vmtest: arm64-need-fetch
	$(MAKE) BUILD=$(ARM64) CC="$(ARM64_CC)" $(ARM64)/vmtest

# Boots with what built; ptwalk.ko or the fixture missing fails the
# guest's insmod cases, not the boot.  VM_PAGE_SIZE: the kernel's, which
# picks the hugetlb pools (scripts/vm-run.sh).  ARM64_KO=lint: the modules
# arm64-lint built (check-arm64 boots those when the lint passed).
# ARM64_IOMMU=1: the IOMMU lane's VM instead (virt's SMMUv3, edu bound to
# vfio-pci, the device-view cases alone) into $(ARM64_OUT)/iommu-vm;
# with ARM64_IOMMU_KIND=virtio virtio-iommu-pci instead of the SMMU, into
# $(ARM64_OUT)/iommu-virtio-vm.
# ARM64_SKIP: ptcompare's own cases (PTCOMPARE_OWN_CASES, the same work on
# every kernel of one page size) run on 6.1 (4K) and newest-16k; the
# others leave them out (about 60 s of each lane).  The 64k lane's 42-bit
# address space (4 TiB) cannot hold the sparse mapping whose scan times
# the progress line.
ARM64_COMMA := ,
# The real drivers under load (dma_driver_): scripts/vm-run.sh gives their
# devices to the IOMMU lanes only, and not to the 64k lane, whose kernel,
# built here (scripts/arm64-64k-kernel.config), has none of their drivers
# (VM_DMA_DRIVERS=0).
ARM64_KO ?= modules
ARM64_SPACE := $(subst ,, )
ARM64_DMA_DRIVERS = $(if $(and $(ARM64_IOMMU),$(filter-out 64k,$(ARM64_LANE))),1,0)
ARM64_SKIP ?= $(subst $(ARM64_SPACE),$(ARM64_COMMA),$(strip $(if $(filter 1,$(ARM64_DMA_DRIVERS)),,dma_driver_) \
	$(if $(filter 6.12 newest 6.12-16k 64k,$(ARM64_LANE)),$(PTCOMPARE_OWN_CASES))))
arm64-vm: arm64-need-fetch
	VM_ARCH=arm64 VM_PAGE_SIZE=$(or $(ARM64_PAGE_SIZE),4K) VM_IOMMU=$(ARM64_IOMMU) VM_IOMMU_KIND=$(ARM64_IOMMU_KIND) VM_SKIP=$(ARM64_SKIP) VM_DMA_DRIVERS=$(ARM64_DMA_DRIVERS) \
	VM_KERNEL=$(ARM64_KERNEL) VM_MODTREE=$(ARM64_MODDIR) VM_SYSROOT=$(ARM64_SYSROOT) \
	VM_KO_DIR=$(ARM64_MODS)/$(ARM64_KO) VM_MISSING_KO=ok VM_TIMEOUT=$(ARM64_VM_TIMEOUT) \
		scripts/vm-run.sh $(ARM64_OUT)/$(if $(ARM64_IOMMU),iommu$(if $(filter virtio,$(ARM64_IOMMU_KIND)),-virtio)-vm,vm) $(ARM64_KREL) \
		$(if $(ARM64_IOMMU),iommu,test) \
		$(ARM64)/vmtest:/bin/vmtest $(ARM64)/src/user/ptcompare:/bin/ptcompare

check-arm64:
	scripts/arm64-check.sh

# The IOMMU lane on arm64 (issue 22): check-arm64's steps with the VM of
# ARM64_IOMMU=1, on 6.1 and 6.12 unless ARM64_KERNELS says otherwise;
# $(BUILD)/arm64-iommu.tap (6.1), $(BUILD)/arm64-iommu-LANE.tap.
check-arm64-iommu:
	ARM64_IOMMU=1 ARM64_KERNELS="$(or $(ARM64_KERNELS),6.1 6.12)" scripts/arm64-check.sh

# riscv64 lanes (issue 37): Debian's riscv64 kernels, trixie's 6.12
# (RISCV64_LANE=6.12) and unstable's newest (RISCV64_LANE=newest), fetched
# by scripts/kernel-fetch.sh riscv64-LANE into the unstable chroot, where
# ptwalk.ko and the fixture are cross-built (trixie's kbuild tools need a
# newer glibc than bookworm's); ptcompare and vmtest are cross-built there
# too, against sid's riscv64 libraries (scripts/riscv64-fetch.sh, which
# writes $(RISCV64)/env.mk); the VM boots under qemu-system-riscv64 with
# Svnapot and Svpbmt.  make check-riscv64 runs it all
# (scripts/riscv64-check.sh, which writes each lane's env.mk from its
# kernel.env) into $(BUILD)/riscv64-LANE.tap.
# RISCV64_APPEND: more kernel command line (no5lvl: Sv48, no4lvl: Sv39);
# RISCV64_QEMU, RISCV64_BIOS: the lane's own QEMU (the newest lane's, a
# QEMU bundle that loads no module but its own:
# scripts/riscv64-qemu-fetch.sh), none for the installed one;
# RISCV64_VM: the VM's directory under the lane's (vm, vm-sv48, ...);
# RISCV64_ONLY, RISCV64_SKIP: vm-run.sh's VM_ONLY and VM_SKIP.
# RISCV64_IOMMU=1: the IOMMU lane's VM instead (QEMU 10's riscv-iommu-pci,
# edu behind it, the IOMMU lane's cases alone; the newest lane only).
RISCV64 := $(CURDIR)/build/riscv64
-include $(RISCV64)/env.mk
RISCV64_LANE ?= 6.12
RISCV64_LANE_DIR := $(CURDIR)/build/riscv64-lanes/$(RISCV64_LANE)
-include $(RISCV64_LANE_DIR)/env.mk
RISCV64_CROSS := riscv64-linux-gnu-
# the lane's copies of the module sources, in the chroot and as seen here
RISCV64_MODS_IN = /ptwalk-riscv64/$(RISCV64_LANE)
RISCV64_MODS = $(RISCV64_CHROOT)$(RISCV64_MODS_IN)
RISCV64_CHMAKE = unshare --mount --propagation private sh -c 'mount -t proc proc "$$0/proc" && exec chroot "$$0" make "$$@"' $(1)
RISCV64_MAKE = $(call RISCV64_CHMAKE,$(RISCV64_CHROOT)) -C $(RISCV64_KDIR) ARCH=riscv CROSS_COMPILE=$(RISCV64_CROSS) CC=$(RISCV64_KCC)
RISCV64_USRC = $(RISCV64_UCHROOT)/ptwalk-riscv64/src
RISCV64_UOUT = $(RISCV64_UCHROOT)/ptwalk-riscv64/out
RISCV64_VMTEST_SRCS = Makefile tests/unit/kshim.mk $(VMTEST_SRCS) $(wildcard tests/vm/*.h tests/lib/*.h user/*/*.h user/*/*/*.h) module/ptwalk_abi.h module/ptwalk_names.h tests/fixture/fixture_abi.h
RISCV64_VM_TIMEOUT ?= 2400
RISCV64_KO ?= modules
RISCV64_VM ?= vm
# The cases that move pages to NUMA node 1: the riscv64 VM has one node
# (scripts/vm-run.sh says why).
RISCV64_NUMA_CASES := watch_migrate,watch_pinned_stays,ptcompare_migration_no_false_mismatch
# The IOMMU lane's case that has the DMA API fail a map under a one-page
# DMA mask: dma-direct (riscv64 has no IOMMU_DMA) refuses the mask itself.
RISCV64_IOMMU_SKIP := edu_driver_dma_failed_map_untracked
RISCV64_SKIP ?= $(if $(RISCV64_IOMMU),$(RISCV64_IOMMU_SKIP),$(RISCV64_NUMA_CASES))

riscv64-fetch:
	scripts/riscv64-fetch.sh $(RISCV64)

riscv64-need-fetch:
	@test -n "$(RISCV64_KDIR)" || { echo "no $(RISCV64_LANE_DIR)/env.mk: make check-riscv64 RISCV64_KERNELS=$(RISCV64_LANE) writes it" >&2; exit 2; }

riscv64-need-user:
	@test -n "$(RISCV64_UCHROOT)" || { echo "no $(RISCV64)/env.mk: make riscv64-fetch first" >&2; exit 2; }

# riscv64-module, riscv64-fixture, riscv64-lint: as arm64's
$(eval $(call cross_kbuild,riscv64,RISCV64,riscv64-need-fetch))

# $(call RISCV64_PRUNE,DIRS,PRODUCTS): the copy in the chroot loses the
# sources of DIRS the tree no longer has, their objects and PRODUCTS (to be
# built again without them): user/'s and the VM suite's Makefiles take every
# *.c there, and an old file's object in the archive could stand in for the
# new one's.
RISCV64_PRUNE = cd $(RISCV64_USRC) && for f in $$(find $(1) -name '*.[ch]' 2>/dev/null); do \
	[ -e "$(CURDIR)/$$f" ] || rm -f "$$f" "$${f%.c}.o" $(2); done

riscv64-user: riscv64-need-user
	@scripts/copy-changed.sh $(RISCV64_USRC) $(ARM64_USER_SRCS)
	@$(call RISCV64_PRUNE,user,user/libptcompare.a user/ptcompare)
	$(call RISCV64_CHMAKE,$(RISCV64_UCHROOT)) -C /ptwalk-riscv64/src/user CC=$(RISCV64_UCC) ptcompare

riscv64-vmtest: riscv64-need-user
	@scripts/copy-changed.sh $(RISCV64_USRC) $(RISCV64_VMTEST_SRCS)
	@$(call RISCV64_PRUNE,user tests/vm tests/lib,$(RISCV64_UOUT)/vmtest)
	$(call RISCV64_CHMAKE,$(RISCV64_UCHROOT)) -C /ptwalk-riscv64/src BUILD=/ptwalk-riscv64/out CC=$(RISCV64_UCC) KDIR=none /ptwalk-riscv64/out/vmtest

riscv64-vm: riscv64-need-fetch riscv64-need-user
	VM_ARCH=riscv64 VM_APPEND="$(RISCV64_APPEND)" VM_ONLY=$(RISCV64_ONLY) VM_SKIP=$(RISCV64_SKIP) VM_IOMMU=$(RISCV64_IOMMU) \
	VM_QEMU=$(RISCV64_QEMU) VM_QEMU_BIOS=$(RISCV64_BIOS) \
	VM_KERNEL=$(RISCV64_KERNEL) VM_MODTREE=$(RISCV64_MODDIR) VM_SYSROOT=$(RISCV64_SYSROOT) \
	VM_KO_DIR=$(RISCV64_MODS)/$(RISCV64_KO) VM_MISSING_KO=ok VM_TIMEOUT=$(RISCV64_VM_TIMEOUT) \
		scripts/vm-run.sh $(RISCV64_LANE_DIR)/$(RISCV64_VM) $(RISCV64_KREL) $(if $(RISCV64_IOMMU),iommu,test) \
		$(RISCV64_UOUT)/vmtest:/bin/vmtest $(RISCV64_USRC)/user/ptcompare:/bin/ptcompare

check-riscv64:
	scripts/riscv64-check.sh

.PHONY: riscv64-fetch riscv64-need-fetch riscv64-need-user riscv64-module riscv64-fixture riscv64-lint riscv64-user riscv64-vmtest riscv64-vm check-riscv64

.PHONY: arm64-fetch arm64-need-fetch arm64-module arm64-fixture arm64-lint arm64-user arm64-vmtest arm64-vm check-arm64 check-arm64-iommu

# Kernel matrix: Debian's 5.10 (bullseye), 6.1 (bookworm), 6.12
# (bookworm-backports) and newest (unstable), each at the version current
# in its suite, fetched into build/kernels/ (scripts/kernel-fetch.sh),
# ptwalk.ko and the fixture built W=1 and sparse clean against its headers,
# and the whole VM suite booted on it; ends "N passed, N failed".
# KERNELS="6.12 newest" runs some; make check-vm KERNEL=6.12 runs one.
# KERNELS_SANITIZED="6.12:asan newest:tsan": the suite on those kernels
# with the sanitized ptcompare builds (CI's, instead of make check's
# check-vm-asan and check-vm-tsan on 6.1; scripts/kernel-check.sh).
# KERNELS_IOMMU="5.10 6.12 newest": the IOMMU lane too on those kernels,
# with the same modules (make check-iommu KERNEL=K alone); K:amd and
# K:virtio, the AMD-Vi and virtio-iommu lanes (make check-iommu IOMMU=...).
# KERNELS_SKIP_OWN="5.10": those kernels' suites leave ptcompare's own
# cases (PTCOMPARE_OWN_CASES) to 6.1's plain lane, as ARM64_SKIP does.
check-kernels: user $(BUILD)/vmtest $(BUILD)/compat32 $(if $(findstring :asan,$(KERNELS_SANITIZED)),asan-ptcompare) $(if $(findstring :tsan,$(KERNELS_SANITIZED)),tsan-ptcompare)
	KERNELS_SANITIZED="$(KERNELS_SANITIZED)" KERNELS_IOMMU="$(KERNELS_IOMMU)" KERNELS_SKIP_OWN="$(KERNELS_SKIP_OWN)" PTCOMPARE_OWN_CASES="$(PTCOMPARE_OWN_CASES)" TSAN_CASES="$(TSAN_CASES)" scripts/kernel-matrix.sh $(MOD_SRCS)

.PHONY: check-kernels

# Installation.  The version lives in module/ptwalk_version.h (modinfo,
# ptcompare --version);
# dkms.conf and the man page repeat it, and make check-packaging checks that
# they agree.
VERSION := $(shell sed -n 's/^\#define PTWALK_VERSION "\(.*\)"/\1/p' $(CURDIR)/module/ptwalk_version.h)
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
DKMS_SRCDIR ?= /usr/src/ptwalk-$(VERSION)
INSTALL ?= install
INSTALLED := $(DESTDIR)$(BINDIR)/ptcompare $(DESTDIR)$(MANDIR)/man1/ptcompare.1 \
	$(DESTDIR)$(COMPLETIONDIR)/ptcompare

install: user
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPLETIONDIR)
	$(INSTALL) -m 0755 user/ptcompare $(DESTDIR)$(BINDIR)/ptcompare
	$(INSTALL) -m 0644 man/ptcompare.1 $(DESTDIR)$(MANDIR)/man1/ptcompare.1
	$(INSTALL) -m 0644 completion/ptcompare $(DESTDIR)$(COMPLETIONDIR)/ptcompare

uninstall:
	rm -f $(INSTALLED)

# Rebuilding first rewrites modules.order without the test fixture, which
# kbuild would otherwise install too after a "make fixture".  Kbuild skips
# depmod when the kernel tree has no System.map (Debian's headers have none),
# so on the live system it is run here, for modprobe to find ptwalk; a staged
# install (INSTALL_MOD_PATH or DESTDIR) leaves depmod to whoever installs it.
INSTALL_MOD_PATH ?= $(DESTDIR)
DEPMOD ?= depmod
modules_install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) modules_install
	$(if $(INSTALL_MOD_PATH),,$(DEPMOD) -a $(KREL))

# Only what dkms builds: "dkms add ." would copy the whole tree, build/ included.
DKMS_FILES = dkms.conf Kbuild module/Kbuild $(filter-out %.mod.c,$(wildcard module/*.[ch] module/conftest/*))
dkms-source:
	@for f in $(DKMS_FILES); do \
		$(INSTALL) -D -m 0644 $$f $(DESTDIR)$(DKMS_SRCDIR)/$$f || exit 1; \
	done
	@echo "dkms-source: $(DESTDIR)$(DKMS_SRCDIR); now: dkms add ptwalk/$(VERSION) && dkms install ptwalk/$(VERSION)"

check-packaging: user
	KDIR=$(KDIR) scripts/packaging-test.sh $(BUILD)/packaging.tap

# Debian packages (debian/: debhelper and dh-dkms), built from a copy of
# the tree, into build/deb/.  check-deb: their part of check-packaging
# alone; deb-chroot: the bookworm chroot it installs them into (cached
# under build/; CI starts it early, in the background).
deb:
	scripts/build-deb.sh $(BUILD)/deb

# The release tarball: the tree's sources, no build/, no .git.
dist:
	scripts/dist.sh $(BUILD)

check-deb:
	rm -f $(BUILD)/deb.tap
	scripts/deb-test.sh $(BUILD)/deb.tap
	@cat $(BUILD)/deb.tap

deb-chroot:
	scripts/deb-chroot.sh $(BUILD)/deb-chroot/bookworm

.PHONY: install uninstall modules_install dkms-source check-packaging deb dist check-deb deb-chroot

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) PTWALK_FIXTURE=1 clean
	$(MAKE) -C user clean
	rm -rf $(BUILD)

.PHONY: bench all module fixture user unit-build vm-build check check-unit check-lint check-layout check-configs check-vm check-iommu check-vm-asan check-vm-tsan demo demo-run clean
