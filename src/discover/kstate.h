/* discover/: the kernel state beneath the GPUs, read from the root (so
 * --root and gather captures replay it): module parameters in force
 * (/sys/module/M/parameters/P), what the kernel command line and the
 * modprobe.d files ask for, Secure Boot, the TTM limits, and per GPU the
 * firmware versions amdgpu exposes (device/fw_version/). Included by
 * discover.h. */
#ifndef GD_KSTATE_H
#define GD_KSTATE_H

#include <stddef.h>
#include <stdint.h>

#include "../core/facts.h"

/* "module.param=value" as asked (cmdline, modprobe.d) or in force (sysfs).
 * Module names use '_' (the kernel treats '-' and '_' alike). */
struct gd_kopt {
	char module[32];
	char param[48];
	char value[64];
	char src[112]; /* "/etc/modprobe.d/amdgpu.conf:3", "/proc/cmdline" */
};

#define GD_KOPT_MAX 48
/* The src of a dracut rd.driver.blacklist= entry (initramfs only). */
#define GD_KBL_RD_SRC "/proc/cmdline rd.driver.blacklist"
#define GD_KBL_MAX 16
/* What a command line or a set of modprobe.d files asks for. */
struct gd_kopts {
	size_t n;
	struct gd_kopt v[GD_KOPT_MAX];
	size_t n_black;
	struct gd_kopt black[GD_KBL_MAX]; /* module + src; param "" */
	int dropped;			  /* entries past the caps */
};

/* The modules whose parameters are read. */
enum gd_kmod {
	GD_KMOD_AMDGPU,
	GD_KMOD_NVIDIA,
	GD_KMOD_NOUVEAU,
	GD_KMOD_TTM,
	GD_KMOD_AMDTTM,
	GD_KMOD_N
};
const char *gd_kmod_name(enum gd_kmod k); /* "amdgpu" */

#define GD_KPARAM_MAX 24
struct gd_kmodule {
	int loaded; /* /sys/module/M exists */
	size_t n;
	struct {
		char name[48];
		char value[64];
	} p[GD_KPARAM_MAX];
};

struct gd_kstate {
	int read; /* 1 once gd_kstate_read ran (Linux); 0 on Windows */
	struct gd_kmodule mod[GD_KMOD_N];
	gd_text cmdline;	 /* its state and the first 159 bytes */
	char cmdline_full[2048]; /* as read, up to 2047 bytes */
	struct gd_kopts cmd;
	struct gd_kopts modprobe; /* /etc, /run, /usr/lib, /lib modprobe.d */
	int n_modprobe_files;
	/* efivars SecureBoot-8be4df61-...: 1 on, 0 off, -1 unknown */
	int secure_boot;
	char secure_boot_why[96];
	gd_num mem_total; /* /proc/meminfo MemTotal, bytes */
	int ttm_module;	  /* GD_KMOD_TTM or GD_KMOD_AMDTTM: whose limit */
	gd_num ttm_pages_limit, ttm_page_pool_size; /* pages of 4 KiB */
	/* an nvidia module built for the running kernel (DKMS or packaged),
	 * "" when none was found */
	char nvidia_ko[160];
};

/* The firmware versions of one amdgpu device, device/fw_version/ (files
 * such as mes_fw_version holding "0x00000083", readable without root;
 * amdgpu's FW_VERSION_ATTR, docs/discover.md). */
#define GD_FW_MAX 32
struct gd_fw {
	size_t n;
	struct {
		char name[32];	/* "mes_fw_version" */
		char value[24]; /* as read: "0x00000083" */
	} v[GD_FW_MAX];
	char why[96]; /* why none, "" when read */
};

/* ---- Pure parsers (bytes in; unit-tested and fuzzed) ---- */

/* /proc/cmdline: "module.param=value" words (double quotes group, as the
 * kernel's next_arg() reads them), and modprobe.blacklist= /
 * module_blacklist= lists, into out (appended). */
void gd_cmdline_parse(const char *buf, size_t len, struct gd_kopts *out);
/* One modprobe.d file (modprobe.d(5)): "options MODULE p=v ...",
 * "blacklist MODULE", "install MODULE /bin/false" (counted as a
 * blacklist), '#' comments, '\' continuations. file names the src. */
void gd_modprobe_parse(const char *buf, size_t len, const char *file,
		       struct gd_kopts *out);
/* Do two parameter values say the same? "Y"/"1", "N"/"0", case, spaces. */
int gd_kparam_same(const char *a, const char *b);

/* ---- Lookups over what discover read ---- */

/* The value in force of module.param, or NULL (module not loaded, no such
 * parameter, not read). */
const char *gd_kstate_param(const struct gd_kstate *k, const char *module,
			    const char *param);
/* The last request for module.param in the command line or modprobe.d
 * (the command line wins, as it is applied after them), or NULL. */
const struct gd_kopt *gd_kstate_asked(const struct gd_kstate *k,
				      const char *module, const char *param);
/* Is module blacklisted (cmdline or modprobe.d)? The entry or NULL. */
const struct gd_kopt *gd_kstate_blacklisted(const struct gd_kstate *k,
					    const char *module);
/* A firmware version of a GPU, or NULL. */
const char *gd_fw_get(const struct gd_fw *fw, const char *name);

#endif
