/* discover/kparse.c and kstate.c: /proc/cmdline and modprobe.d parsing on
 * real lines (cited per case), the lookups, and the whole kernel state read
 * from a captured tree (tests/fixtures). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover/discover.h"
#include "kb/kb.h"
#include "t.h"

static void test_cmdline(void)
{
	struct gd_kopts o;
	/* ROCm #5562, Debian 13 dmesg "Command line:" (Strix Halo) */
	static const char deb[] =
	    "BOOT_IMAGE=/boot/vmlinuz-6.12.48+deb13-amd64 "
	    "root=UUID=1a6903bb-2dec-435d-845d-4f6e21505860 ro "
	    "transparent_hugepage=always numa_balancing=disable "
	    "amdgpu.gttsize=128000 amdttm.pages_limit=32768000 "
	    "amdttm.page_pool_size=32768000\n";

	memset(&o, 0, sizeof o);
	gd_cmdline_parse(deb, sizeof deb - 1, &o);
	CHECK_INT(o.n, 3);
	CHECK_STR(o.v[0].module, "amdgpu");
	CHECK_STR(o.v[0].param, "gttsize");
	CHECK_STR(o.v[0].value, "128000");
	CHECK_STR(o.v[2].module, "amdttm");
	CHECK_STR(o.v[2].param, "page_pool_size");
	CHECK_STR(o.v[2].src, "/proc/cmdline");
	CHECK_INT(o.n_black, 0);

	/* negativo17/nvidia-driver#73: dracut's initramfs-only blacklist */
	memset(&o, 0, sizeof o);
	gd_cmdline_parse("ro rd.driver.blacklist=nouveau", 30, &o);
	CHECK_INT(o.n, 0);
	CHECK_INT(o.n_black, 1);
	CHECK_STR(o.black[0].module, "nouveau");
	CHECK_STR(o.black[0].src, GD_KBL_RD_SRC);

	/* modprobe.blacklist lists; '-' and '_' alike; quotes; "--" ends */
	memset(&o, 0, sizeof o);
	gd_cmdline_parse("modprobe.blacklist=nouveau,nvidia-drm "
			 "x.y=\"a b\" -- amdgpu.mes=1",
			 68, &o);
	CHECK_INT(o.n_black, 2);
	CHECK_STR(o.black[1].module, "nvidia_drm");
	CHECK_INT(o.n, 1);
	CHECK_STR(o.v[0].value, "a b");
}

static void test_modprobe(void)
{
	struct gd_kopts o;
	/* palazzem/hanzo#345 (amdgpu.conf), the common nouveau blacklist,
	 * and a continued ttm line (softab's modprobe.d example) */
	static const char f[] = "options amdgpu cwsr_enable=0\n"
				"# a comment\n"
				"blacklist nouveau\n"
				"install nouveau /bin/false\n"
				"options ttm pages_limit=31457280 \\\n"
				"  page_pool_size=31457280 # pool too\n"
				"options nvidia-drm modeset=1\n"
				"alias foo off\n";

	memset(&o, 0, sizeof o);
	gd_modprobe_parse(f, sizeof f - 1, "/etc/modprobe.d/a.conf", &o);
	CHECK_INT(o.n, 4);
	CHECK_STR(o.v[0].src, "/etc/modprobe.d/a.conf:1");
	CHECK_STR(o.v[1].module, "ttm");
	CHECK_STR(o.v[2].param, "page_pool_size");
	CHECK_STR(o.v[2].src, "/etc/modprobe.d/a.conf:5");
	CHECK_STR(o.v[3].module, "nvidia_drm");
	CHECK_INT(o.n_black, 2);
	CHECK_STR(o.black[0].src, "/etc/modprobe.d/a.conf:3");
}

static void test_lookups(void)
{
	struct gd_kstate k;

	memset(&k, 0, sizeof k);
	k.mod[GD_KMOD_AMDGPU].loaded = 1;
	k.mod[GD_KMOD_AMDGPU].n = 1;
	strcpy(k.mod[GD_KMOD_AMDGPU].p[0].name, "cwsr_enable");
	strcpy(k.mod[GD_KMOD_AMDGPU].p[0].value, "1");
	gd_modprobe_parse("options amdgpu cwsr_enable=0\n", 29, "/m.conf",
			  &k.modprobe);
	CHECK_STR(gd_kstate_param(&k, "amdgpu", "cwsr_enable"), "1");
	CHECK(gd_kstate_param(&k, "amdgpu", "mes") == NULL);
	CHECK_STR(gd_kstate_asked(&k, "amdgpu", "cwsr_enable")->src,
		  "/m.conf:1");
	/* the command line is applied after modprobe.d: it wins */
	gd_cmdline_parse("amdgpu.cwsr_enable=1", 20, &k.cmd);
	CHECK_STR(gd_kstate_asked(&k, "amdgpu", "cwsr_enable")->src,
		  "/proc/cmdline");
	CHECK(gd_kparam_same("Y", "1") && gd_kparam_same(" N\n", "0"));
	CHECK(!gd_kparam_same("1", "0"));
}

/* Discover one captured machine (tests/fixtures/<name>/root). */
static int load(const char *srcdir, const char *name, gd_ctx *ctx,
		struct gd_machine *m)
{
	char root[4096], *env[] = {NULL};

	snprintf(root, sizeof root, "%s/tests/fixtures/%s/root", srcdir, name);
	if (gd_ctx_init(ctx, root, env) < 0)
		return -1;
	return gd_discover(ctx, m);
}

/* The whole state of captured machines (each README cites its data). */
static void test_fixture(const char *srcdir)
{
	struct gd_machine m;
	gd_ctx ctx;

	if (load(srcdir, "strixhalo-gtt-62g", &ctx, &m) == 0) {
		CHECK_INT(m.kstate.ttm_pages_limit.v, 16469033);
		CHECK_INT(m.kstate.ttm_module, GD_KMOD_TTM);
		CHECK_INT(m.kstate.mem_total.v, 131752264ull * 1024);
		CHECK_INT(m.kstate.secure_boot, -1);
		gd_machine_free(&m);
	} else {
		CHECK(!"strixhalo-gtt-62g");
	}
	gd_ctx_free(&ctx);
	if (load(srcdir, "strixhalo-mes83", &ctx, &m) == 0) {
		CHECK_INT(m.n_gpus, 1);
		CHECK_STR(gd_fw_get(&m.gpus[0].fw, "mes_fw_version"),
			  "0x00000083");
		CHECK_STR(gd_kstate_param(&m.kstate, "amdgpu", "cwsr_enable"),
			  "0");
		gd_machine_free(&m);
	} else {
		CHECK(!"strixhalo-mes83");
	}
	gd_ctx_free(&ctx);
	if (load(srcdir, "nvidia-secureboot", &ctx, &m) == 0) {
		CHECK_INT(m.kstate.secure_boot, 1);
		CHECK(strstr(m.kstate.nvidia_ko, "updates/dkms/nvidia.ko") !=
		      NULL);
		CHECK(!m.kstate.mod[GD_KMOD_NVIDIA].loaded);
		gd_machine_free(&m);
	} else {
		CHECK(!"nvidia-secureboot");
	}
	gd_ctx_free(&ctx);
}

/* The kb's kernel section: the shipped entries read back typed, and a
 * broken one refused by the validator (docs/kb.md). */
static void test_kb_kernel(const char *srcdir)
{
	char path[4096], err[512], *buf, *at;
	struct gd_kb_firmware f;
	struct gd_kb_kernel_release r;
	gd_kb *kb;
	FILE *fp;
	long n;

	snprintf(path, sizeof path, "%s/src/kb/gpudoctor-kb.json", srcdir);
	kb = gd_kb_load_file(path, err, sizeof err);
	CHECK(kb != NULL);
	if (!kb)
		return;
	CHECK_INT(gd_kb_firmware_get(kb, "gfx1151-mes-0x83", &f), 0);
	CHECK_STR(f.file, "mes_fw_version");
	CHECK(gd_kb_list_has(f.bad, "0x00000083"));
	CHECK(gd_kb_kernel_release_count(kb) >= 1);
	CHECK_INT(gd_kb_kernel_release_at(kb, 0, &r), 0);
	CHECK_STR(r.below, "6.18");
	gd_kb_free(kb);
	if (!(fp = fopen(path, "rb")))
		return;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, fp) == (size_t)n) {
		buf[n] = 0;
		/* "below" must be major.minor: a word is refused */
		at = strstr(buf, "\"below\": \"6.18\"");
		CHECK(at != NULL);
		if (at) {
			memcpy(at + 10, "x.yz", 4);
			kb = gd_kb_parse(buf, (size_t)n, "t.json", err,
					 sizeof err);
			CHECK(kb == NULL);
			CHECK(strstr(err, "kernel.releases") != NULL);
			gd_kb_free(kb);
		}
	}
	free(buf);
	fclose(fp);
}

int main(void)
{
	const char *src = getenv("GD_SRCDIR");

	test_cmdline();
	test_modprobe();
	test_lookups();
	if (src) {
		test_fixture(src);
		test_kb_kernel(src);
	}
	return t_done("test_kstate");
}
