/* binscan readers on hand-built byte buffers (every reader, truncated and
 * out-of-range cases included), compressed bundles made with the real
 * libzstd / zlib, and two real binaries from tests/fixtures/binscan. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "binscan/binscan.h"
#include "t.h"

static void w16(uint8_t *b, size_t o, uint16_t v)
{
	b[o] = (uint8_t)v;
	b[o + 1] = (uint8_t)(v >> 8);
}

static void w32(uint8_t *b, size_t o, uint32_t v)
{
	w16(b, o, (uint16_t)v);
	w16(b, o + 2, (uint16_t)(v >> 16));
}

static void w64(uint8_t *b, size_t o, uint64_t v)
{
	w32(b, o, (uint32_t)v);
	w32(b, o + 4, (uint32_t)(v >> 32));
}

static const char *tlist(const struct gd_bs_file *f)
{
	static char out[512];

	gd_bs_targets_str(f->targets.v, f->targets.n, " ", out, sizeof out);
	return out;
}

static void test_reads(void)
{
	uint8_t b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	uint64_t v64;
	uint32_t v32;
	const char *s;

	CHECK(gd_bs_rd32(b, 8, 4, &v32) == 0 && v32 == 0x08070605);
	CHECK(gd_bs_rd32(b, 8, 5, &v32) == -1);
	CHECK(gd_bs_rd64(b, 8, 0, &v64) == 0);
	CHECK(gd_bs_rd64(b, 8, UINT64_MAX - 2, &v64) == -1);
	CHECK(gd_bs_str(b, 8, 0, &s) == -1); /* no NUL inside */
	CHECK(!gd_bs_in(8, 9, 0) && gd_bs_in(8, 8, 0) &&
	      !gd_bs_in(8, 4, UINT64_MAX));
}

/* fatbin: container + sm_80 cubin + compute_90a PTX 9.0 (compressed) */
static size_t make_fatbin(uint8_t *b)
{
	memset(b, 0, 256);
	w32(b, 0, 0xBA55ED50u);
	w16(b, 4, 1);
	w16(b, 6, 16);
	w64(b, 8, 64 + 16 + 80 + 8);
	w16(b, 16, 2); /* ELF */
	w32(b, 20, 64);
	w64(b, 24, 16);
	w32(b, 16 + 28, 80);
	w64(b, 16 + 40, 0x11);
	w16(b, 96, 1); /* PTX */
	w32(b, 100, 80);
	w64(b, 104, 8);
	w16(b, 96 + 24, 0);
	w16(b, 96 + 26, 9);
	w32(b, 96 + 28, 90);
	w64(b, 96 + 40, 0x108011);
	return 16 + 64 + 16 + 80 + 8;
}

static void test_fatbin(void)
{
	uint8_t b[256];
	size_t n = make_fatbin(b);
	struct gd_bs_file f = {0};
	char err[200];

	CHECK_INT(gd_nvfatbin_scan(b, n, &f, err, sizeof err), 0);
	CHECK_STR(tlist(&f), "sm_80 compute_90a");
	CHECK(f.targets.n == 2 && f.targets.v[1].compressed &&
	      f.targets.v[1].ptx_major == 9 &&
	      f.targets.v[1].kind == GD_BS_PTX);
	gd_bs_file_free(&f);
	memset(&f, 0, sizeof f);
	CHECK_INT(gd_nvfatbin_scan(b, n - 1, &f, err, sizeof err),
		  -1); /* truncated */
	CHECK(strstr(err, "outside") != NULL);
	w32(b, 100, 40); /* entry header size below the minimum */
	CHECK_INT(gd_nvfatbin_scan(b, n, &f, err, sizeof err), -1);
	make_fatbin(b);
	w64(b, 104,
	    UINT64_MAX - 10); /* payload size pointing past everything */
	CHECK_INT(gd_nvfatbin_scan(b, n, &f, err, sizeof err), -1);
	CHECK_INT(gd_nvfatbin_scan((const uint8_t *)"nothing here", 12, &f, err,
				   sizeof err),
		  -1);
	gd_bs_file_free(&f);
}

/* bundle: host entry + hipv4 gfx1030:xnack- entry pointing at 8 bytes */
static size_t make_bundle(uint8_t *b)
{
	static const char *ids[] = {"host-x86_64-unknown-linux-gnu-",
				    "hipv4-amdgcn-amd-amdhsa--gfx1030:xnack-"};
	size_t o = 32, data;

	memset(b, 0, 512);
	memcpy(b, "__CLANG_OFFLOAD_BUNDLE__", 24);
	w64(b, 24, 2);
	data = 32 + 2 * 24 + strlen(ids[0]) + strlen(ids[1]);
	for (int i = 0; i < 2; i++) {
		w64(b, o, data);
		w64(b, o + 8, i ? 8 : 0);
		w64(b, o + 16, strlen(ids[i]));
		memcpy(b + o + 24, ids[i], strlen(ids[i]));
		o += 24 + strlen(ids[i]);
	}
	return data + 8;
}

static void test_bundle(void)
{
	uint8_t b[512];
	size_t n = make_bundle(b);
	struct gd_bs_file f = {0};
	uint64_t used;
	char err[200];

	CHECK_INT(gd_offload_bundle_scan(b, n, &f, &used, err, sizeof err), 0);
	CHECK_STR(tlist(&f), "gfx1030:xnack-");
	CHECK_INT(used, n);
	gd_bs_file_free(&f);
	memset(&f, 0, sizeof f);
	CHECK_INT(gd_offload_bundle_scan(b, 40, &f, &used, err, sizeof err),
		  -1);
	CHECK(f.targets.n == 0); /* nothing half-recorded */
	CHECK_INT(gd_offload_bundle_scan(b, n - 1, &f, &used, err, sizeof err),
		  -1);
	w64(b, 24, 1u << 30); /* entry count */
	CHECK_INT(gd_offload_bundle_scan(b, n, &f, &used, err, sizeof err), -1);
	gd_bs_file_free(&f);
}

/* CCOB v1..v3 around the bundle, zstd and zlib, from the real libraries */
static void test_ccob(void)
{
	uint8_t bundle[512], comp[1024], ccob[1200];
	size_t bn = make_bundle(bundle);

	for (int ver = 1; ver <= 3; ver++) {
		for (int method = 0; method < 2; method++) {
			size_t cn, hs = ver == 1 ? 20 : ver == 2 ? 24 : 32;
			uLongf zn = sizeof comp;
			struct gd_bs_file f = {0};
			uint64_t used;
			char err[200];

			if (method)
				cn = ZSTD_compress(comp, sizeof comp, bundle,
						   bn, 3);
			else
				cn = compress2(comp, &zn, bundle, bn, 9) == Z_OK
					 ? zn
					 : 0;
			memset(ccob, 0, sizeof ccob);
			memcpy(ccob, "CCOB", 4);
			w16(ccob, 4, (uint16_t)ver);
			w16(ccob, 6, (uint16_t)method);
			if (ver == 1) {
				w32(ccob, 8, (uint32_t)bn);
			} else if (ver == 2) {
				w32(ccob, 8, (uint32_t)(hs + cn));
				w32(ccob, 12, (uint32_t)bn);
			} else {
				w64(ccob, 8, hs + cn);
				w64(ccob, 16,
				    1ull << 40); /* a claim never trusted */
			}
			memcpy(ccob + hs, comp, cn);
			CHECK_INT(gd_offload_bundle_scan(ccob, hs + cn, &f,
							 &used, err,
							 sizeof err),
				  0);
			CHECK_STR(tlist(&f), "gfx1030:xnack-");
			CHECK(f.targets.n == 1 && f.targets.v[0].compressed);
			if (ver > 1)
				CHECK_INT(gd_offload_bundle_scan(
					      ccob, hs + cn - 1, &f, &used, err,
					      sizeof err),
					  -1);
			ccob[hs + 2] ^= 0xff; /* corrupt stream */
			ccob[hs + 3] ^= 0xff;
			CHECK(gd_offload_bundle_scan(ccob, hs + cn, &f, &used,
						     err, sizeof err) == -1 ||
			      f.targets.n == 1);
			w16(ccob, 6, 7); /* unknown method */
			CHECK_INT(gd_offload_bundle_scan(ccob, hs + cn, &f,
							 &used, err,
							 sizeof err),
				  -1);
			gd_bs_file_free(&f);
		}
	}
}

static void co_header(uint8_t *b, uint8_t abiver, uint32_t flags)
{
	memset(b, 0, 64);
	memcpy(b, "\177ELF", 4);
	b[4] = 2;
	b[5] = 1;
	b[7] = 64;
	b[8] = abiver;
	w16(b, 16, 3);
	w16(b, 18, GD_EM_AMDGPU);
	w32(b, 48, flags);
}

static void test_code_object(void)
{
	uint8_t b[64];
	char gfx[40], feat[40];
	unsigned v;

	co_header(b, 2, 0x036 | 0x200); /* v4, gfx1030, xnack off */
	CHECK_INT(
	    gd_amdgpu_co_target(b, 64, gfx, sizeof gfx, feat, sizeof feat, &v),
	    0);
	CHECK_STR(gfx, "gfx1030");
	CHECK_STR(feat, "xnack-");
	CHECK_INT(v, 4);
	co_header(b, 3,
		  0x03f | 0xc00 | 0x100); /* v5 gfx90a sramecc on, xnack any */
	gd_amdgpu_co_target(b, 64, gfx, sizeof gfx, feat, sizeof feat, &v);
	CHECK_STR(gfx, "gfx90a");
	CHECK_STR(feat, "sramecc+");
	co_header(b, 1, 0x02c | 0x100); /* v3: xnack bit set = on */
	gd_amdgpu_co_target(b, 64, gfx, sizeof gfx, feat, sizeof feat, &v);
	CHECK_STR(feat, "xnack+");
	CHECK_INT(v, 3);
	co_header(b, 4, 0x053 | (1u << 24)); /* v6 generic */
	gd_amdgpu_co_target(b, 64, gfx, sizeof gfx, feat, sizeof feat, &v);
	CHECK_STR(gfx, "gfx10-3-generic");
	co_header(b, 2, 0x04a);
	gd_amdgpu_co_target(b, 64, gfx, sizeof gfx, feat, sizeof feat, &v);
	CHECK_STR(gfx, "gfx1151");
	CHECK_INT(
	    gd_amdgpu_co_target(b, 63, gfx, sizeof gfx, feat, sizeof feat, &v),
	    -1);
}

static int fit(const char *gpu, enum gd_bs_kind k, const char *t,
	       const char *feat, unsigned ptx)
{
	struct gd_bs_gpu g;
	struct gd_bs_target tg = {0};
	char why[160];

	if (gd_bs_gpu_parse(gpu, &g))
		return -1;
	g.ptx_max_major = 8; /* a 550-branch driver: PTX 8.4 */
	g.ptx_max_minor = 4;
	tg.kind = k;
	gd_strlcpy(tg.target, t, sizeof tg.target);
	gd_strlcpy(tg.features, feat, sizeof tg.features);
	tg.ptx_major = ptx;
	return (int)gd_bs_target_fits(&tg, &g, why, sizeof why);
}

static void test_fit(void)
{
	unsigned a, b;

	CHECK_INT(fit("gfx1030", GD_BS_AMDGCN, "gfx1030", "", 0), GD_FIT_YES);
	CHECK_INT(fit("gfx1031", GD_BS_AMDGCN, "gfx1030", "", 0), GD_FIT_NO);
	CHECK_INT(fit("gfx1010", GD_BS_AMDGCN, "gfx10-1-generic", "", 0),
		  GD_FIT_YES);
	CHECK_INT(fit("gfx1030", GD_BS_AMDGCN, "gfx10-1-generic", "", 0),
		  GD_FIT_NO);
	CHECK_INT(fit("gfx1151", GD_BS_AMDGCN, "gfx11-generic", "", 0),
		  GD_FIT_YES);
	CHECK_INT(fit("gfx90a:xnack+", GD_BS_AMDGCN, "gfx90a", "xnack-", 0),
		  GD_FIT_NO);
	CHECK_INT(fit("gfx90a:xnack-", GD_BS_AMDGCN, "gfx90a", "xnack-", 0),
		  GD_FIT_YES);
	CHECK_INT(fit("gfx90a:xnack+", GD_BS_AMDGCN, "gfx90a", "", 0),
		  GD_FIT_YES);
	CHECK_INT(fit("gfx90a", GD_BS_AMDGCN, "gfx90a", "sramecc+:xnack-", 0),
		  GD_FIT_YES);
	CHECK_INT(fit("sm_86", GD_BS_SASS, "sm_80", "", 0), GD_FIT_YES);
	CHECK_INT(fit("sm_80", GD_BS_SASS, "sm_86", "", 0), GD_FIT_NO);
	CHECK_INT(fit("sm_90", GD_BS_SASS, "sm_80", "", 0), GD_FIT_NO);
	CHECK_INT(fit("sm_90", GD_BS_SASS, "sm_90a", "", 0), GD_FIT_YES);
	CHECK_INT(fit("sm_100", GD_BS_SASS, "sm_90a", "", 0), GD_FIT_NO);
	CHECK_INT(fit("sm_103", GD_BS_SASS, "sm_100f", "", 0), GD_FIT_YES);
	CHECK_INT(fit("sm_90", GD_BS_PTX, "compute_80", "", 8), GD_FIT_PTX);
	CHECK_INT(fit("sm_90", GD_BS_PTX, "compute_80", "", 9),
		  GD_FIT_NO); /* driver too old */
	CHECK_INT(fit("sm_75", GD_BS_PTX, "compute_80", "", 8), GD_FIT_NO);
	CHECK_INT(fit("sm_100", GD_BS_PTX, "compute_90a", "", 8), GD_FIT_NO);
	CHECK_INT(fit("8.6", GD_BS_SASS, "sm_86", "", 0), GD_FIT_YES);
	CHECK_INT(fit("gfx1030", GD_BS_SASS, "sm_86", "", 0), GD_FIT_NO);
	CHECK_INT(fit("bogus", GD_BS_SASS, "sm_86", "", 0), -1);
	CHECK(gd_bs_ptx_ceiling("580.95.05", &a, &b) == 0 && a == 9 && b == 0);
	CHECK(gd_bs_ptx_ceiling("550.54.14", &a, &b) == 0 && a == 8 && b == 4);
	CHECK(gd_bs_ptx_ceiling("390.1", &a, &b) == -1);
}

struct zcount {
	int members, errors;
	char last[64];
};

static int zcb(void *arg, const struct gd_zip_member *m,
	       const struct gd_zip_names *names, const char *why)
{
	struct zcount *z = arg;

	(void)names;
	if (why) {
		z->errors++;
		gd_strlcpy(z->last, why, sizeof z->last);
	} else if (m->len == 12 && !memcmp(m->data, "hello, world", 12)) {
		z->members++;
	}
	return 0;
}

static int want_all(const char *n)
{
	(void)n;
	return 1;
}

/* One-member zip: "a.so" = "hello, world", stored or deflated. */
static size_t make_zip(uint8_t *b, int defl, uint32_t claim)
{
	uint8_t d[64];
	uLongf dn = sizeof d;
	size_t o = 0, cd;
	z_stream z = {0};

	if (defl) {
		deflateInit2(&z, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
		z.next_in = (Bytef *)"hello, world";
		z.avail_in = 12;
		z.next_out = d;
		z.avail_out = sizeof d;
		deflate(&z, Z_FINISH);
		dn = z.total_out;
		deflateEnd(&z);
	} else {
		memcpy(d, "hello, world", 12);
		dn = 12;
	}
	memset(b, 0, 512);
	w32(b, 0, 0x04034b50);
	w16(b, 8, defl ? 8 : 0);
	w32(b, 18, (uint32_t)dn);
	w32(b, 22, claim);
	w16(b, 26, 4);
	memcpy(b + 30, "a.so", 4);
	memcpy(b + 34, d, dn);
	o = 34 + dn;
	cd = o;
	w32(b, o, 0x02014b50);
	w16(b, o + 10, defl ? 8 : 0);
	w32(b, o + 20, (uint32_t)dn);
	w32(b, o + 24, claim);
	w16(b, o + 28, 4);
	memcpy(b + o + 46, "a.so", 4);
	o += 50;
	w32(b, o, 0x06054b50);
	w16(b, o + 8, 1);
	w16(b, o + 10, 1);
	w32(b, o + 12, 50);
	w32(b, o + 16, (uint32_t)cd);
	return o + 22;
}

static void test_zip(void)
{
	uint8_t b[512];
	char err[200];

	for (int defl = 0; defl < 2; defl++) {
		struct zcount z = {0};
		size_t n = make_zip(b, defl, 12);

		CHECK_INT(gd_zip_walk(b, n, 1 << 20, want_all, zcb, &z, err,
				      sizeof err),
			  0);
		CHECK_INT(z.members, 1);
		CHECK_INT(gd_zip_walk(b, n - 1, 1 << 20, want_all, zcb, &z, err,
				      sizeof err),
			  -1);
	}
	{
		struct zcount z = {0};
		size_t n = make_zip(b, 1, 5); /* inflates past its claim */

		gd_zip_walk(b, n, 1 << 20, want_all, zcb, &z, err, sizeof err);
		CHECK(z.errors == 1 && strstr(z.last, "declared size"));
		n = make_zip(b, 1, 0x7fffffff); /* ratio no deflate can reach */
		gd_zip_walk(b, n, 1ull << 32, want_all, zcb, &z, err,
			    sizeof err);
		CHECK(z.errors == 2 && strstr(z.last, "ratio"));
	}
}

static void test_real(void)
{
	gd_ctx ctx;
	gd_bs_files files = {0};
	struct gd_bs_opts o = GD_BS_OPTS_DEFAULT;
	char p[1024];
	const char *src = getenv("GD_SRCDIR");
	int hip_needed = 0;

	gd_ctx_init(&ctx, "/", NULL);
	snprintf(p, sizeof p,
		 "%s/tests/fixtures/binscan/libhip_gfx900_gfx1010_gfx90a.so",
		 src ? src : "..");
	CHECK_INT(gd_bs_scan_path(&ctx, p, &o, &files), 0);
	snprintf(p, sizeof p,
		 "%s/tests/fixtures/binscan/libcuda_sm80_sm90_ptx90.so",
		 src ? src : "..");
	CHECK_INT(gd_bs_scan_path(&ctx, p, &o, &files), 0);
	CHECK_INT(gd_bs_scan_path(&ctx, "/nonexistent/x.so", &o, &files), 0);
	CHECK_INT(files.n, 3);
	if (files.n == 3) {
		CHECK_STR(tlist(&files.v[0]), "gfx1010 gfx900 gfx90a:xnack-");
		CHECK_STR(tlist(&files.v[1]), "sm_80 sm_90 compute_90");
		CHECK(files.v[2].error[0] != '\0');
		for (size_t i = 0; i < files.v[0].dyn.needed.n; i++)
			hip_needed |= !strcmp(files.v[0].dyn.needed.v[i],
					      "libamdhip64.so.5");
		CHECK(hip_needed);
		CHECK(files.v[0].dyn.symvers.n > 0); /* GLIBC_* at least */
	}
	gd_bs_files_free(&files);
	gd_ctx_free(&ctx);
}

int main(void)
{
	test_reads();
	test_fatbin();
	test_bundle();
	test_ccob();
	test_code_object();
	test_fit();
	test_zip();
	test_real();
	return t_done("test_binscan");
}
