# SPDX-License-Identifier: GPL-2.0
#
# swapnice: per-process swap priority for Linux.
#
#   make demo     build what is missing, boot the guest, show the morning problem
#   make check    host tests, then the guest suite on the patched kernel
#   make help     everything else
#
# Build products live in build/ (never committed).

SHELL := /bin/bash
TOP := $(CURDIR)
BUILD := $(TOP)/build
KFLAVOR ?= guest
PREFIX ?= /usr/local
DESTDIR ?=

# Debian packages the project needs (installed by "make deps" as root).
DEB_PACKAGES := linux-source-6.1 qemu-system-x86 busybox-static libcap-dev \
	gcc make bc bison flex libelf-dev libssl-dev cpio e2fsprogs ccache \
	xz-utils git kmod util-linux man-db groff-base gnuplot-nox python3 \
	python3-ply python3-git sparse \
	stress-ng rsync

KERNEL_IMAGE = $(BUILD)/kbuild-$(KFLAVOR)/arch/x86/boot/bzImage
GUEST := $(BUILD)/guest
GUEST_CFLAGS := -O2 -g -Wall -Wextra -Werror -static -pthread \
	-I$(TOP)/uapi -I$(TOP)/tests/guest -I$(BUILD)/linux/tools/testing/selftests
GUEST_SRCS := $(wildcard tests/guest/*.c)
GUEST_BINS := $(patsubst tests/guest/%.c,$(GUEST)/bin/%,$(GUEST_SRCS))
GUEST_SCRIPTS := $(wildcard tests/guest/*.sh) tests/guest/tests.list

.PHONY: all help deps kernel kernel-debug kernel-plain patches tools guest \
	initramfs disks demo check check-host check-guest check-configs check-peers shell bench install \
	deb real deps-real \
	clean distclean

all: tools

help:
	@echo 'make demo          the morning problem, with and without swapnice (main job)'
	@echo 'make check         all tests: host, then guest suite under QEMU'
	@echo 'make check-host    host tests only (CLI, uapi)'
	@echo 'make check-guest   guest suite only (tests/vm/run)'
	@echo 'make check-peers   selftests and stress-ng on the unpatched and patched kernels, compared'
	@echo 'make check-configs build the series with SWAP, MEMCG, LRU_GEN, PROC_FS, SYSCTL off; W=1, sparse'
	@echo 'make kernel        extract linux-source-6.1, apply patches/, build bzImage'
	@echo 'make patches       export build/linux base..HEAD into patches/'
	@echo 'make tools         build tools/swapnice'
	@echo 'make install       install swapnice, its man page and bash completion (PREFIX, DESTDIR)'
	@echo 'make uninstall     remove what make install put there'
	@echo 'make shell         interactive shell in the guest'
	@echo 'make bench         benchmark against the alternatives'
	@echo 'make deb           Debian kernel packages of the series, from Debian'"'"'s own configuration'
	@echo 'make real          the deb in a debootstrapped Debian 12 with systemd: redis against xz -9'
	@echo 'make deps          install the Debian packages (as root)'

# ---------------------------------------------------------------- set-up
# $(call apt_install,PACKAGES,LOG): install the Debian packages missing
# (as root; another user is told the command to run).
define apt_install
	@missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		cmd="apt-get install -y --no-install-recommends $$(echo $$missing)"; \
		if [ "$$(id -u)" != 0 ]; then \
			echo "swapnice: missing packages; run as root: apt-get update && $$cmd" >&2; exit 1; \
		fi; \
		echo "==> installing: $$(echo $$missing)"; \
		mkdir -p $(dir $(2)); \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$cmd -qq; } > $(2) 2>&1 \
			|| { tail -20 $(2); echo "swapnice: apt-get failed (log: $(2))" >&2; exit 1; }; \
	fi
endef

deps:
	$(call apt_install,$(DEB_PACKAGES),$(BUILD).apt.log)

# ---------------------------------------------------------------- kernel
kernel: deps
	@tests/vm/kernel build guest

kernel-debug: deps
	@tests/vm/kernel build debug

kernel-plain: deps
	@tests/vm/kernel build plain

patches:
	@tests/vm/kernel export

# ---------------------------------------------------------------- tools
tools:
	@$(MAKE) -s -C tools/swapnice

# The CLI, its man page and its bash completion (PREFIX, DESTDIR).
.PHONY: uninstall
install:
	@$(MAKE) -s -C tools/swapnice install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

uninstall:
	@$(MAKE) -s -C tools/swapnice uninstall PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

# ---------------------------------------------------------------- guest
# "guest" is what tests/vm/run needs: the kernel, the initramfs, the disks.
guest: deps
	@tests/vm/kernel build $(KFLAVOR)
	@$(MAKE) -s initramfs disks

$(GUEST)/bin/%: tests/guest/%.c tests/guest/*.h uapi/linux/swapnice.h
	@mkdir -p $(@D)
	@echo "  CC (static) $@" | sed 's|$(TOP)/||'
	@gcc $(GUEST_CFLAGS) -o $@ $< -lm

$(GUEST)/swapnice: tools/swapnice/swapnice.c uapi/linux/swapnice.h
	@mkdir -p $(@D)
	@$(MAKE) -s -C tools/swapnice static OUT=$@

initramfs: $(GUEST)/initramfs.cpio.gz

$(GUEST)/initramfs.cpio.gz: $(GUEST_BINS) $(GUEST)/swapnice $(GUEST_SCRIPTS) tests/vm/init tests/vm/mkinitramfs
	@tests/vm/mkinitramfs $@ $(GUEST)/bin $(GUEST)/swapnice

disks: $(BUILD)/disks/swap.img $(BUILD)/disks/data.img

$(BUILD)/disks/swap.img:
	@mkdir -p $(@D)
	@echo "==> swap disk: 512 MB"
	@truncate -s 512M $@.tmp && mkswap -q $@.tmp && mv $@.tmp $@

$(BUILD)/disks/data.img: tests/vm/mkdata
	@tests/vm/mkdata $@

# ---------------------------------------------------------------- use
demo: guest tools
	@tests/vm/demo

shell: guest
	@tests/vm/run --no-build --shell

# The unpatched kernel is built only when the peers' recorded verdicts
# on it are not current (see tests/peers/run).
check: deps guest
	@tests/vm/kernel build debug
	@tests/check

# The host tests need a compiler and man only, not the kernel's build
# dependencies: install just those (as root) when missing.
HOST_PACKAGES := gcc make man-db groff-base
.PHONY: deps-host
deps-host:
	$(call apt_install,$(HOST_PACKAGES),$(BUILD)/apt-host.log)

check-host: deps-host
	@$(MAKE) -s -C tests/host check

check-guest: guest
	@tests/vm/run --no-build

check-configs: deps
	@tests/vm/configs

# The suites written elsewhere on the unpatched and the patched kernel.
# Both kernels run; the unpatched one's verdicts are recorded for make
# check (tests/peers/plain.verdicts).
check-peers: guest kernel-plain
	@tests/peers/build
	@tests/peers/run --record plain guest

bench: deps
	@tests/bench/run

# ---------------------------------------------------------------- real
# A Debian system: the kernel packaged from Debian's configuration, and
# real programs in a debootstrapped Debian 12 with systemd.  Not part of
# make check (too long for CI); see README.md for their times.
REAL_PACKAGES := linux-config-6.1 debootstrap fakeroot dpkg-dev
deps-real: deps
	$(call apt_install,$(REAL_PACKAGES),$(BUILD)/apt-real.log)

deb: deps-real
	@tests/real/deb

# The package is brought up to date first (2.5 min when only patches/
# changed), so that the system runs the series as it is.
real: deps-real
	@tests/real/deb
	@tests/real/run

clean:
	rm -rf $(GUEST) $(BUILD)/logs
	@$(MAKE) -s -C tools/swapnice clean

distclean:
	rm -rf $(BUILD)
