/* PE reader (src/binscan/pe.c) on hand-built PE32 / PE32+ buffers: headers,
 * every error path of the header walk, section names through the COFF string
 * table (decimal and base-64), RVA mapping, an import directory spanning two
 * sections whose file bytes are not adjacent, delay-load tables (new and old
 * layout), the export name, a table with no end, GPU code in .hip_fat /
 * .nv_fatb / through the .hipFatB wrapper. Resolution: test_binscan_dll.c. The
 * real-file cases (MinGW-built DLLs) are in tests/scripts/test_scan_pe.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binscan/binscan.h"
#include "pe_img.h"
#include "t.h"

static const char *tlist(const struct gd_bs_file *f)
{
	static char out[512];

	gd_bs_targets_str(f->targets.v, f->targets.n, " ", out, sizeof out);
	return out;
}

static const char *needed(const struct gd_bs_dyn *d)
{
	static char out[512];
	size_t u = 0;

	out[0] = '\0';
	for (size_t i = 0; i < d->needed.n; i++)
		u += (size_t)snprintf(out + u, sizeof out - u, "%s%s",
				      i ? " " : "", d->needed.v[i]);
	return out;
}

static void test_headers(void)
{
	static uint8_t b[IMG_N];
	struct gd_pe p;
	struct gd_pe_sect s;
	uint64_t off, avail;
	char err[200];

	mk_pe(b, sizeof b, 1, std_secs, 3);
	CHECK_INT(gd_pe_open(&p, b, sizeof b, err, sizeof err), 0);
	CHECK_INT(p.machine, 0x8664);
	CHECK_INT(p.magic, 0x20b);
	CHECK_INT(p.nsect, 3);
	CHECK(p.image_base == BASE64);
	CHECK_INT(p.n_dirs, 16);
	CHECK(gd_pe_section(&p, 1, &s) == 0 && s.va == 0x2000 &&
	      s.rawoff == 0x600);
	CHECK_STR(s.name, ".idata");
	CHECK(gd_pe_section(&p, 3, &s) == -1);
	CHECK(gd_pe_find(&p, ".rdata", &s) == 0 && s.va == 0x3000);
	CHECK(gd_pe_find(&p, ".hip_fat", &s) == -1);
	CHECK(gd_pe_rva(&p, 0x2010, &off, &avail) == 0 && off == 0x610 &&
	      avail == 0x1f0);
	CHECK(gd_pe_rva(&p, 0x2200, &off, &avail) == -1); /* between sections */
	CHECK(gd_pe_rva(&p, 0x10, &off, &avail) == 0 && off == 0x10 &&
	      avail == 0x3f0);
	CHECK(gd_pe_rva(&p, UINT64_MAX - 4, &off, &avail) == -1);
	CHECK_STR(gd_pe_machine_name(p.machine), "x86-64");

	mk_pe(b, sizeof b, 0, std_secs, 3);
	CHECK_INT(gd_pe_open(&p, b, sizeof b, err, sizeof err), 0);
	CHECK(p.magic == 0x10b && p.image_base == BASE32 && p.machine == 0x14c);
	CHECK(gd_pe_rva(&p, 0x3100, &off, &avail) == 0 && off == 0x900);
	CHECK_STR(gd_pe_machine_name(p.machine), "i386");
}

static void expect_open_err(const uint8_t *b, size_t n, const char *want)
{
	struct gd_pe p;
	char err[200] = "";

	CHECK_INT(gd_pe_open(&p, b, n, err, sizeof err), -1);
	if (!strstr(err, want))
		fprintf(stderr, "  error \"%s\", want \"%s\"\n", err, want);
	CHECK(strstr(err, want) != NULL);
}

static void test_bad_headers(void)
{
	static uint8_t b[IMG_N], big[100000];

	mk_pe(b, sizeof b, 1, std_secs, 3);
	expect_open_err((const uint8_t *)"\177ELF", 4, "not a PE file");
	expect_open_err(b, 40, "truncated MZ header");
	expect_open_err(b, OPT + 10, "truncated PE optional header");
	w32(b, 0x3c, 0x10000);
	expect_open_err(b, sizeof b, "lies outside it");
	w32(b, 0x3c, PE_OFF);
	b[PE_OFF + 1] = 'X';
	expect_open_err(b, sizeof b, "without a PE signature");
	mk_pe(b, sizeof b, 1, std_secs, 3);
	w16(b, OPT, 0x107); /* ROM image */
	expect_open_err(b, sizeof b, "unknown PE optional header magic");
	mk_pe(b, sizeof b, 1, std_secs, 3);
	w16(b, PE_OFF + 20, 0);
	expect_open_err(b, sizeof b, "without an optional header");
	w16(b, PE_OFF + 20, 0xffff);
	expect_open_err(b, sizeof b, "truncated PE optional header");
	w16(b, PE_OFF + 20, 100); /* shorter than its data directories */
	expect_open_err(b, sizeof b, "optional header too short");
	mk_pe(b, sizeof b, 1, std_secs, 3);
	w16(b, PE_OFF + 6, 200); /* 8000 bytes of section table */
	expect_open_err(b, sizeof b, "section table outside the file");
	w16(b, PE_OFF + 6, 20); /* fits the file, not SizeOfHeaders */
	expect_open_err(b, sizeof b, "runs past the headers");
	mk_pe(big, sizeof big, 1, std_secs, 3);
	w16(big, PE_OFF + 6, 2000);
	expect_open_err(big, sizeof big, "over 1024 sections");
	mk_pe(b, sizeof b, 1, std_secs, 3);
	w32(b, OPT + 108, 0xffffffff); /* NumberOfRvaAndSizes: capped */
	{
		struct gd_pe p;

		CHECK(gd_pe_open(&p, b, sizeof b, NULL, 0) == 0 &&
		      p.n_dirs == 16);
		w32(b, OPT + 108, 2);
		CHECK(gd_pe_open(&p, b, sizeof b, NULL, 0) == 0 &&
		      p.n_dirs == 2);
	}
}

/* "/4" and "//AAAAAQ" (= 16) through the string table at 0xc00. */
static void test_long_names(void)
{
	static uint8_t b[IMG_N];
	static const struct sec s[] = {
	    {"/4", 0x1000, 0x200, 0x400},
	    {"//AAAAAQ", 0x2000, 0x200, 0x600},
	    {"/999", 0x3000, 0x200, 0x800},
	    {"/4x", 0x4000, 0x100, 0xa00},
	};
	struct gd_pe p;
	struct gd_pe_sect x;

	mk_pe(b, sizeof b, 1, s, 4);
	w32(b, PE_OFF + 12, 0xc00 - 2 * 18); /* PointerToSymbolTable */
	w32(b, PE_OFF + 16, 2);		     /* two symbols before it */
	w32(b, 0xc00, 4 + 12 + 12);
	memcpy(b + 0xc04, ".hip_fatbin\0.debug_info\0", 24);
	CHECK_INT(gd_pe_open(&p, b, sizeof b, NULL, 0), 0);
	CHECK(gd_pe_section(&p, 0, &x) == 0);
	CHECK_STR(x.name, ".hip_fatbin");
	CHECK(gd_pe_section(&p, 1, &x) == 0);
	CHECK_STR(x.name, ".debug_info");
	CHECK(gd_pe_section(&p, 2, &x) == 0);
	CHECK_STR(x.name, "/999"); /* outside the table: kept as written */
	CHECK(gd_pe_section(&p, 3, &x) == 0);
	CHECK_STR(x.name, "/4x");
	CHECK(gd_pe_find(&p, ".hip_fatbin", &x) == 0 && x.va == 0x1000);
	w32(b, 0xc00, 0xfffffff0); /* a table size past the file: ignored */
	CHECK_INT(gd_pe_open(&p, b, sizeof b, NULL, 0), 0);
	CHECK(gd_pe_section(&p, 0, &x) == 0);
	CHECK_STR(x.name, "/4");
}

/* Descriptor 0 is the last 20 bytes of .idata (file 0x7ec), descriptor 1
 * and the null one start .idat2, whose bytes lie at 0xa00, not at 0x800. */
static void test_imports_spanning(void)
{
	static uint8_t b[IMG_N];
	static const struct sec s[] = {
	    {".text", 0x1000, 0x200, 0x400},
	    {".idata", 0x2000, 0x200, 0x600},
	    {".idat2", 0x2200, 0x200, 0xa00},
	};
	struct gd_pe p;
	struct gd_bs_dyn d = {0};
	char err[200];

	mk_pe(b, sizeof b, 1, s, 3);
	memset(b + 0x800, 0xff, 0x200); /* what a contiguous read would see */
	set_dir(b, 1, GD_PE_DIR_IMPORT, 0x21ec, 60);
	put_import(b, 0x7ec, 0x2300);
	put_import(b, 0xa00, 0x2320);
	strcpy((char *)b + 0xb00, "amdhip64_7.dll");
	strcpy((char *)b + 0xb20, "KERNEL32.dll");
	CHECK_INT(gd_pe_open(&p, b, sizeof b, NULL, 0), 0);
	CHECK_INT(gd_pe_imports(&p, &d, err, sizeof err), 0);
	CHECK_STR(needed(&d), "amdhip64_7.dll KERNEL32.dll");
	CHECK_INT(d.n_delay, 0);
	gd_bs_dyn_free(&d);
	memset(&d, 0, sizeof d);

	b[0xb20] = 1; /* a name that is not text */
	CHECK_INT(gd_pe_imports(&p, &d, err, sizeof err), -1);
	CHECK(strstr(err, "not text") != NULL);
	gd_bs_dyn_free(&d);
	memset(&d, 0, sizeof d);
	b[0xb20] = 'K';
	w32(b, 0xa00 + 12, 0x7ffffff0); /* name RVA nowhere */
	CHECK_INT(gd_pe_imports(&p, &d, err, sizeof err), -1);
	CHECK(strstr(err, "outside") != NULL);
	gd_bs_dyn_free(&d);
	memset(&d, 0, sizeof d);
	set_dir(b, 1, GD_PE_DIR_IMPORT, 0x23f0, 40); /* runs off .idat2 */
	memset(b + 0xbf0, 0x11, 16);
	CHECK_INT(gd_pe_imports(&p, &d, err, sizeof err), -1);
	CHECK(strstr(err, "runs outside the file") != NULL);
	gd_bs_dyn_free(&d);
}

/* Delay-Load Directory Table: new layout (RVAs, Attributes 1) on PE32+,
 * the old one (VAs, Attributes 0) on PE32; names already imported are not
 * repeated (case-insensitively); the export name becomes the soname. */
static void test_delay_and_export(void)
{
	static uint8_t b[IMG_N];
	struct gd_pe p;
	struct gd_bs_dyn d = {0};
	char err[200];

	for (int plus = 1; plus >= 0; plus--) {
		mk_pe(b, sizeof b, plus, std_secs, 3);
		set_dir(b, plus, GD_PE_DIR_IMPORT, 0x2000, 40);
		put_import(b, 0x600, 0x2100);
		strcpy((char *)b + 0x700, "KERNEL32.dll");
		set_dir(b, plus, GD_PE_DIR_DELAY_IMPORT, 0x3000, 96);
		w32(b, 0x800, plus ? 1 : 0);
		w32(b, 0x804, plus ? 0x3100 : BASE32 + 0x3100);
		w32(b, 0x820, plus ? 1 : 0);
		w32(b, 0x824, plus ? 0x3120 : BASE32 + 0x3120);
		strcpy((char *)b + 0x900, "hiprtc0701.dll");
		strcpy((char *)b + 0x920, "kernel32.DLL");
		set_dir(b, plus, GD_PE_DIR_EXPORT, 0x3200, 40);
		w32(b, 0xa00 + 12, 0x3280);
		strcpy((char *)b + 0xa80, "ct2.dll");
		CHECK_INT(gd_pe_open(&p, b, sizeof b, NULL, 0), 0);
		CHECK_INT(gd_pe_imports(&p, &d, err, sizeof err), 0);
		CHECK_STR(needed(&d), "KERNEL32.dll hiprtc0701.dll");
		CHECK_INT(d.n_delay, 1);
		CHECK_STR(d.soname, "ct2.dll");
		gd_bs_dyn_free(&d);
		memset(&d, 0, sizeof d);
	}
}

/* Descriptors that never end: the walk stops at the cap. */
static void test_import_no_end(void)
{
	size_t n = 0x20000;
	uint8_t *b = malloc(n);
	struct sec s[] = {{".idata", 0x2000, 0x1c000, 0x400}};
	struct gd_pe p;
	struct gd_bs_dyn d = {0};
	char err[200] = "";

	if (!b)
		return;
	mk_pe(b, n, 1, s, 1);
	set_dir(b, 1, GD_PE_DIR_IMPORT, 0x2000, 0);
	for (unsigned i = 0; i < 0x1b000 / 20; i++)
		put_import(b, 0x400 + 20 * i, 0x2000 + 0x1b800);
	strcpy((char *)b + 0x400 + 0x1b800, "loop.dll");
	CHECK_INT(gd_pe_open(&p, b, n, NULL, 0), 0);
	CHECK_INT(gd_pe_imports(&p, &d, err, sizeof err), -1);
	CHECK(strstr(err, "no end") != NULL);
	CHECK_STR(needed(&d), "loop.dll");
	gd_bs_dyn_free(&d);
	free(b);
}

/* make_bundle / make_fatbin as in test_binscan.c: gfx1030:xnack-, and
 * sm_80 + compute_90a. */
static size_t make_bundle(uint8_t *b)
{
	static const char *ids[] = {"host-x86_64-unknown-linux-gnu-",
				    "hipv4-amdgcn-amd-amdhsa--gfx1030:xnack-"};
	size_t o = 32, data = 32 + 2 * 24 + strlen(ids[0]) + strlen(ids[1]);

	memcpy(b, "__CLANG_OFFLOAD_BUNDLE__", 24);
	w64(b, 24, 2);
	for (int i = 0; i < 2; i++) {
		w64(b, o, data);
		w64(b, o + 8, i ? 8 : 0);
		w64(b, o + 16, strlen(ids[i]));
		memcpy(b + o + 24, ids[i], strlen(ids[i]));
		o += 24 + strlen(ids[i]);
	}
	return data + 8;
}

static size_t make_fatbin(uint8_t *b)
{
	w32(b, 0, 0xBA55ED50u);
	w16(b, 4, 1);
	w16(b, 6, 16);
	w64(b, 8, 64 + 16 + 80 + 8);
	w16(b, 16, 2);
	w32(b, 20, 64);
	w64(b, 24, 16);
	w32(b, 16 + 28, 80);
	w64(b, 16 + 40, 0x11);
	w16(b, 96, 1);
	w32(b, 100, 80);
	w64(b, 104, 8);
	w16(b, 96 + 26, 9);
	w32(b, 96 + 28, 90);
	w64(b, 96 + 40, 0x108011);
	return 16 + 64 + 16 + 80 + 8;
}

static void scan_expect(const uint8_t *b, size_t n, const char *targets,
			const char *error)
{
	struct gd_bs_file f = {0};

	gd_bs_scan_bytes(b, n, &f);
	CHECK_STR(tlist(&f), targets);
	CHECK_STR(f.error, error);
	if (!error[0])
		CHECK_STR(f.format, "pe");
	gd_bs_file_free(&f);
}

static void test_gpu_sections(void)
{
	static uint8_t b[IMG_N];
	struct sec s[] = {
	    {".text", 0x1000, 0x200, 0x400},
	    {".hip_fat", 0x2000, 0x200, 0x600},
	    {".nv_fatb", 0x3000, 0x200, 0x800},
	};

	mk_pe(b, sizeof b, 1, s, 3);
	make_bundle(b + 0x600);
	make_fatbin(b + 0x800);
	scan_expect(b, sizeof b, "gfx1030:xnack- sm_80 compute_90a", "");
	w32(b, OPT + 240 + 40 + 20, 0x7ff000); /* .hip_fat PointerToRawData */
	scan_expect(b, sizeof b, "sm_80 compute_90a",
		    "section .hip_fat points outside the file (truncated?)");

	/* the bundle in .rdata, found through the .hipFatB wrapper; the
	 * fatbin in .data, through .nvFatBi */
	for (int plus = 1; plus >= 0; plus--) {
		uint64_t base = plus ? BASE64 : BASE32;
		struct sec w[] = {
		    {".rdata", 0x2000, 0x200, 0x600},
		    {".data", 0x3000, 0x200, 0x800},
		    {".hipFatB", 0x4000, 0x18, 0xa00},
		    {".nvFatBi", 0x5000, 0x18, 0xc00},
		};

		mk_pe(b, sizeof b, plus, w, 4);
		make_bundle(b + 0x600);
		make_fatbin(b + 0x800);
		w32(b, 0xa00, 0x48495046);
		w32(b, 0xa04, 1);
		w32(b, 0xc00, 0x466243b1);
		w32(b, 0xc04, 1);
		if (plus) {
			w64(b, 0xa08, base + 0x2000);
			w64(b, 0xc08, base + 0x3000);
		} else {
			w32(b, 0xa08, (uint32_t)base + 0x2000);
			w32(b, 0xc08, (uint32_t)base + 0x3000);
		}
		scan_expect(b, sizeof b, "gfx1030:xnack- sm_80 compute_90a",
			    "");
		w32(b, 0xa00,
		    0x12345678); /* not the HIPF magic: not followed */
		scan_expect(b, sizeof b, "sm_80 compute_90a", "");
	}
}

static void test_scan_bytes(void)
{
	static uint8_t b[IMG_N];
	struct gd_bs_file f = {0};

	mk_pe(b, sizeof b, 1, std_secs, 3);
	CHECK_INT(gd_bs_scan_bytes(b, sizeof b, &f), 0);
	CHECK(gd_bs_is_pe(&f) && f.pe_machine == 0x8664 && f.has_dyn);
	CHECK(f.targets.n == 0 && f.dyn.needed.n == 0 && !f.error[0]);
	gd_bs_file_free(&f);
	memset(&f, 0, sizeof f);
	CHECK_INT(gd_bs_scan_bytes((const uint8_t *)"MZ\x90\0", 4, &f), -1);
	CHECK_STR(f.error, "truncated MZ header");
	CHECK(!gd_bs_is_pe(&f));
	gd_bs_file_free(&f);
}

int main(void)
{
	test_headers();
	test_bad_headers();
	test_long_names();
	test_imports_spanning();
	test_delay_and_export();
	test_import_no_end();
	test_gpu_sections();
	test_scan_bytes();
	return t_done("test_binscan_pe");
}
