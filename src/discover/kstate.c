/* The kernel state beneath the GPUs (kstate.h), read through ctx->fs so a
 * captured machine replays it and `gather` records it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disc_int.h"

/* The parameters worth reading per module: those the field reports and
 * ROCm/NVIDIA documents name (docs/discover.md, "AMD: DRM attributes,
 * kernel parameters, firmware"). */
static const char *const want[GD_KMOD_N][GD_KPARAM_MAX] = {
    [GD_KMOD_AMDGPU] = {"cwsr_enable", "mtype_local", "noretry", "gttsize",
			"mes", "sched_policy", "lockup_timeout",
			"ppfeaturemask", "vramlimit", "gpu_recovery", "runpm",
			"sg_display", "dcdebugmask", "hws_max_conc_proc",
			"ignore_crat", "exp_hw_support", NULL},
    [GD_KMOD_NVIDIA] = {"NVreg_OpenRmEnableUnsupportedGpus",
			"NVreg_PreserveVideoMemoryAllocations",
			"NVreg_EnableGpuFirmware", "NVreg_EnableMSI",
			"NVreg_DynamicPowerManagement", NULL},
    [GD_KMOD_NOUVEAU] = {"modeset", "config", NULL},
    [GD_KMOD_TTM] = {"pages_limit", "page_pool_size", "dma32_pages_limit",
		     NULL},
    [GD_KMOD_AMDTTM] = {"pages_limit", "page_pool_size", NULL},
};

static void read_module(gd_ctx *ctx, enum gd_kmod k, struct gd_kmodule *km)
{
	char path[160], val[64];

	gd_fmt(path, sizeof path, "/sys/module/%s", gd_kmod_name(k));
	km->loaded = gd_fs_exists(&ctx->fs, path);
	for (size_t i = 0; km->loaded && want[k][i]; i++) {
		gd_fmt(path, sizeof path, "/sys/module/%s/parameters/%s",
		       gd_kmod_name(k), want[k][i]);
		if (gd_fs_read_line(&ctx->fs, path, val, sizeof val) < 0 ||
		    km->n >= GD_KPARAM_MAX)
			continue;
		gd_strlcpy(km->p[km->n].name, want[k][i], sizeof km->p[0].name);
		gd_strlcpy(km->p[km->n].value, val, sizeof km->p[0].value);
		km->n++;
	}
}

static void read_cmdline(gd_ctx *ctx, struct gd_kstate *k)
{
	char *buf = NULL;
	size_t len = 0;
	int rc = gd_fs_read_alloc(&ctx->fs, "/proc/cmdline", 8192, &buf, &len);

	if (rc < 0 && rc != -EFBIG) {
		gd_text_unknown(&k->cmdline, GD_UNKNOWN, "/proc/cmdline: %s",
				gd_fs_strerror(rc));
		free(buf);
		return;
	}
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = 0;
	gd_text_set(&k->cmdline, buf, "/proc/cmdline");
	gd_strlcpy(k->cmdline_full, buf, sizeof k->cmdline_full);
	gd_cmdline_parse(buf, len, &k->cmd);
	free(buf);
}

/* modprobe.d(5): files named *.conf in these directories; a file in an
 * earlier directory hides one of the same name in a later one. */
static const char *const mp_dirs[] = {"/etc/modprobe.d", "/run/modprobe.d",
				      "/usr/local/lib/modprobe.d",
				      "/usr/lib/modprobe.d", "/lib/modprobe.d"};

static int seen_name(gd_strvec *names, const char *n)
{
	for (size_t i = 0; i < names->n; i++)
		if (!strcmp(names->v[i], n))
			return 1;
	return 0;
}

static void read_modprobe(gd_ctx *ctx, struct gd_kstate *k)
{
	gd_strvec seen = {0};
	int rc;

	for (size_t d = 0; d < sizeof mp_dirs / sizeof *mp_dirs; d++) {
		gd_strvec names = {0};

		if (gd_fs_list(&ctx->fs, mp_dirs[d], &names) < 0)
			continue;
		for (size_t i = 0; i < names.n; i++) {
			const char *n = names.v[i];
			size_t nl = strlen(n);
			char path[320], *buf = NULL, **slot;
			size_t len;

			if (nl < 6 || strcmp(n + nl - 5, ".conf") ||
			    seen_name(&seen, n))
				continue;
			if ((slot = gd_vec_push(&seen)))
				*slot = strdup(n);
			gd_fmt(path, sizeof path, "%s/%s", mp_dirs[d], n);
			rc = gd_fs_read_alloc(&ctx->fs, path, GD_FS_SMALL, &buf,
					      &len);
			if (rc == 0 || rc == -EFBIG) {
				gd_modprobe_parse(buf, len, path, &k->modprobe);
				k->n_modprobe_files++;
			}
			if (rc == -EFBIG)
				gd_diag_add(ctx, GD_DIAG_WARN, path,
					    "larger than %u KiB: only its "
					    "start was read",
					    (unsigned)(GD_FS_SMALL >> 10));
			free(buf);
		}
		gd_strvec_free(&names);
	}
	gd_strvec_free(&seen);
	if (k->modprobe.dropped)
		gd_diag_add(ctx, GD_DIAG_WARN, "modprobe.d",
			    "%d option(s) past what gpudoctor keeps were not "
			    "read",
			    k->modprobe.dropped);
}

/* efivarfs: 4 bytes of attributes, then the UEFI variable's one byte
 * (UEFI spec 3.3, SecureBoot: 1 = enabled). */
#define GD_SB_VAR                                                              \
	"/sys/firmware/efi/efivars/"                                           \
	"SecureBoot-8be4df61-93ca-11d2-aa0d-e98c0ce11ea8"

static void read_secure_boot(gd_ctx *ctx, struct gd_kstate *k)
{
	char buf[16];
	size_t len = 0;
	int rc = gd_fs_read(&ctx->fs, GD_SB_VAR, buf, sizeof buf, &len);

	k->secure_boot = -1;
	if (rc == 0 && len == 5) {
		k->secure_boot = buf[4] == 1;
		return;
	}
	gd_fmt(k->secure_boot_why, sizeof k->secure_boot_why, "%s",
	       rc < 0 ? (gd_fs_exists(&ctx->fs, "/sys/firmware/efi")
			     ? "efivars SecureBoot not readable"
			     : "no EFI (legacy BIOS boot, or not captured)")
		      : "efivars SecureBoot is not 5 bytes");
}

static void read_mem(gd_ctx *ctx, struct gd_kstate *k)
{
	char buf[4096], *p;
	unsigned long long kib;
	int rc = gd_fs_read(&ctx->fs, "/proc/meminfo", buf, sizeof buf, NULL);

	if ((rc == 0 || rc == -EFBIG) && (p = strstr(buf, "MemTotal:")) &&
	    sscanf(p, "MemTotal: %llu kB", &kib) == 1)
		gd_num_set(&k->mem_total, kib * 1024, "/proc/meminfo");
	else
		gd_num_unknown(&k->mem_total, GD_UNKNOWN,
			       "/proc/meminfo: no MemTotal");
}

/* The TTM limit in force: amdttm's with the DKMS amdgpu, else ttm's. */
static void read_ttm(struct gd_kstate *k)
{
	const char *lim, *pool, *mod = "amdttm";
	unsigned long long v;

	if (!(lim = gd_kstate_param(k, mod, "pages_limit")))
		lim = gd_kstate_param(k, mod = "ttm", "pages_limit");
	k->ttm_module = !strcmp(mod, "amdttm") ? GD_KMOD_AMDTTM : GD_KMOD_TTM;
	pool = gd_kstate_param(k, mod, "page_pool_size");
	if (lim && sscanf(lim, "%llu", &v) == 1)
		gd_num_set(&k->ttm_pages_limit, v, mod);
	else
		gd_num_unknown(&k->ttm_pages_limit, GD_UNKNOWN,
			       "no ttm/amdttm pages_limit");
	if (pool && sscanf(pool, "%llu", &v) == 1)
		gd_num_set(&k->ttm_page_pool_size, v, mod);
	else
		gd_num_unknown(&k->ttm_page_pool_size, GD_UNKNOWN,
			       "no ttm/amdttm page_pool_size");
}

/* Where DKMS and the distributions put nvidia.ko for a kernel. */
static void find_nvidia_ko(gd_ctx *ctx, struct gd_kstate *k)
{
	static const char *const dirs[] = {"updates/dkms",
					   "kernel/drivers/video", "extra",
					   "kernel/nvidia", "updates"};
	char rel[96], dir[256];

	if (gd_fs_read_line(&ctx->fs, "/proc/sys/kernel/osrelease", rel,
			    sizeof rel) < 0 ||
	    !rel[0])
		return;
	for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
		gd_strvec names = {0};

		gd_fmt(dir, sizeof dir, "/lib/modules/%s/%s", rel, dirs[d]);
		if (gd_fs_list(&ctx->fs, dir, &names) < 0)
			continue;
		for (size_t i = 0; i < names.n && !k->nvidia_ko[0]; i++)
			if (!strncmp(names.v[i], "nvidia.ko", 9))
				gd_fmt(k->nvidia_ko, sizeof k->nvidia_ko,
				       "%s/%s", dir, names.v[i]);
		gd_strvec_free(&names);
	}
}

void gd_kstate_read(gd_ctx *ctx, struct gd_machine *m)
{
	struct gd_kstate *k = &m->kstate;
	int nvidia = 0;

	k->read = 1;
	for (int i = 0; i < GD_KMOD_N; i++)
		read_module(ctx, (enum gd_kmod)i, &k->mod[i]);
	read_cmdline(ctx, k);
	read_modprobe(ctx, k);
	read_secure_boot(ctx, k);
	read_mem(ctx, k);
	read_ttm(k);
	for (size_t i = 0; i < m->n_gpus; i++)
		nvidia |= m->gpus[i].vendor == GD_VENDOR_NVIDIA;
	if (nvidia)
		find_nvidia_ko(ctx, k);
}

void gd_fw_read(gd_ctx *ctx, struct gd_gpu *g)
{
	char dir[128], path[192], val[32];
	gd_strvec names = {0};

	if (!g->pci.bdf[0])
		return;
	gd_fmt(dir, sizeof dir, GD_PCI_DEVICES "/%s/fw_version", g->pci.bdf);
	if (gd_fs_list(&ctx->fs, dir, &names) < 0) {
		gd_strlcpy(g->fw.why,
			   gd_known(&g->pci.driver)
			       ? "no device/fw_version"
			       : "no device/fw_version: no driver bound",
			   sizeof g->fw.why);
		return;
	}
	for (size_t i = 0; i < names.n && g->fw.n < GD_FW_MAX; i++) {
		gd_fmt(path, sizeof path, "%s/%s", dir, names.v[i]);
		if (gd_fs_read_line(&ctx->fs, path, val, sizeof val) < 0)
			continue;
		gd_strlcpy(g->fw.v[g->fw.n].name, names.v[i],
			   sizeof g->fw.v[0].name);
		gd_strlcpy(g->fw.v[g->fw.n].value, val,
			   sizeof g->fw.v[0].value);
		g->fw.n++;
	}
	gd_strvec_free(&names);
}
