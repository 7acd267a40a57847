/* Profiles: the text format, the libhsakmt override rule, applying to an
 * environment, and the file checks (owner, mode, FIFO, atomic save). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doctor/profile.h"
#include "t.h"

static const char good[] =
    "# gpudoctor profile gpu-1002-731f-gfx1010\n"
    "strategy gfx1010-override-10.3.0\n"
    "saved 2026-11-22\n"
    "\n"
    "  set HSA_OVERRIDE_GFX_VERSION=10.3.0   \n"
    "unset HSA_ENABLE_SDMA\n"
    "prepend-path LD_LIBRARY_PATH=/opt/rocm-6.2.4/lib\n"
    "set MIOPEN_FIND_MODE=FAST\n"
    "set WEIRD=a=b 'c' $(x)\n"
    "note RX 5700 XT: works on ROCm 5.2, faults on 5.3+\n";

static void test_parse(void)
{
	struct gd_profile p;
	char err[256] = "";

	gd_profile_init(&p);
	CHECK_INT(gd_profile_parse(good, strlen(good), &p, err, sizeof err), 0);
	CHECK_STR(err, "");
	CHECK_STR(p.strategy, "gfx1010-override-10.3.0");
	CHECK_STR(p.saved, "2026-11-22");
	CHECK_INT(p.items.n, 5);
	CHECK_INT(p.items.v[0].op, GD_PROF_SET);
	CHECK_STR(p.items.v[0].name, "HSA_OVERRIDE_GFX_VERSION");
	CHECK_STR(p.items.v[0].value, "10.3.0");
	CHECK_INT(p.items.v[1].op, GD_PROF_UNSET);
	CHECK(p.items.v[1].value == NULL);
	CHECK_INT(p.items.v[2].op, GD_PROF_PREPEND);
	CHECK_STR(p.items.v[2].value, "/opt/rocm-6.2.4/lib");
	/* Values are verbatim: no quoting, no expansion, '=' allowed. */
	CHECK_STR(p.items.v[4].value, "a=b 'c' $(x)");
	CHECK_INT(p.notes.n, 1);
	CHECK_INT(gd_profile_validate(&p, err, sizeof err), 0);
	gd_profile_free(&p);
}

static void parse_fails(const char *text, size_t len, const char *want)
{
	struct gd_profile p;
	char err[256] = "";

	gd_profile_init(&p);
	CHECK_INT(gd_profile_parse(text, len, &p, err, sizeof err), -1);
	if (!strstr(err, want)) {
		t_fail++;
		fprintf(stderr, "error '%s' lacks '%s'\n", err, want);
	}
	gd_profile_free(&p);
}

static void test_parse_errors(void)
{
	static char big[GD_PROFILE_MAX_VALUE + 400];

	parse_fails("set FOO\n", 8, "line 1: set: want NAME=VALUE");
	parse_fails("\nexport FOO=1\n", 13, "line 2: unknown directive");
	parse_fails("set 1FOO=1\n", 11, "not a variable name");
	parse_fails("set FO-O=1\n", 11, "not a variable name");
	parse_fails("unset A B\n", 10, "not a variable name");
	parse_fails("set A=1\0\n", 9, "NUL byte");
	memset(big, 'x', sizeof big);
	memcpy(big, "set A=", 6);
	parse_fails(big, sizeof big, "line 1: longer than");
}

static void override_ok(const char *v, const char *gfx)
{
	char got[16] = "", why[200];

	CHECK_INT(gd_override_parse(v, got, sizeof got, why, sizeof why), 0);
	CHECK_STR(got, gfx);
}

static void override_bad(const char *v)
{
	char got[16], why[200] = "";

	CHECK_INT(gd_override_parse(v, got, sizeof got, why, sizeof why), -1);
	CHECK(why[0] != '\0');
}

static void test_override_rule(void)
{
	/* The values docs/workarounds.md lists, decoded as libhsakmt does. */
	override_ok("10.3.0", "gfx1030");
	override_ok("11.0.0", "gfx1100");
	override_ok("9.0.10", "gfx90a");
	override_ok("9.0.12", "gfx90c");
	override_ok("11.5.1", "gfx1151");
	override_ok("10.1.0", "gfx1010");
	override_ok(" 10.3.0", "gfx1030"); /* sscanf %u skips blanks */
	override_bad("gfx1030");
	override_bad("10.3");
	override_bad("10.3.0 ");
	override_bad("10.3.0x");
	override_bad("64.0.0");
	override_bad("10.256.0");
	override_bad("10.3.256");
	override_bad("");
}

static void validate_fails(enum gd_prof_op op, const char *name,
			   const char *value)
{
	struct gd_profile p;
	char err[256] = "";

	gd_profile_init(&p);
	gd_profile_add(&p, op, name, value);
	CHECK_INT(gd_profile_validate(&p, err, sizeof err), -1);
	CHECK(err[0] != '\0');
	gd_profile_free(&p);
}

static void test_validate(void)
{
	validate_fails(GD_PROF_SET, "HSA_OVERRIDE_GFX_VERSION", "gfx1030");
	validate_fails(GD_PROF_SET, "HSA_OVERRIDE_GFX_VERSION_2", "10.3");
	validate_fails(GD_PROF_SET, "A", "line\nbreak");
	validate_fails(GD_PROF_SET, "A B", "1");
	validate_fails(GD_PROF_PREPEND, "LD_LIBRARY_PATH", "lib");
	validate_fails(GD_PROF_PREPEND, "LD_LIBRARY_PATH", "/a:/b");
	validate_fails(GD_PROF_PREPEND, "LD_LIBRARY_PATH", "");
}

static void test_format_roundtrip(void)
{
	struct gd_profile a, b;
	char err[256] = "";
	char *text, *text2;

	gd_profile_init(&a);
	gd_profile_init(&b);
	CHECK_INT(gd_profile_parse(good, strlen(good), &a, err, sizeof err), 0);
	text = gd_profile_format(&a);
	CHECK(text != NULL);
	CHECK(text && gd_startswith(text, "# gpudoctor profile"));
	CHECK_INT(gd_profile_parse(text, strlen(text), &b, err, sizeof err), 0);
	text2 = gd_profile_format(&b);
	CHECK_STR(text2, text);
	free(text);
	free(text2);
	gd_profile_free(&a);
	gd_profile_free(&b);
}

static void test_apply(void)
{
	char *base[] = {"PATH=/usr/bin", "HSA_ENABLE_SDMA=1",
			"LD_LIBRARY_PATH=/usr/lib", "EMPTY=", NULL};
	struct gd_profile p;
	char **env;

	gd_profile_init(&p);
	gd_profile_add(&p, GD_PROF_SET, "HSA_OVERRIDE_GFX_VERSION", "10.3.0");
	gd_profile_add(&p, GD_PROF_UNSET, "HSA_ENABLE_SDMA", NULL);
	gd_profile_add(&p, GD_PROF_UNSET, "NOT_THERE", NULL);
	gd_profile_add(&p, GD_PROF_PREPEND, "LD_LIBRARY_PATH", "/opt/rocm/lib");
	gd_profile_add(&p, GD_PROF_PREPEND, "EMPTY", "/x");
	gd_profile_add(&p, GD_PROF_PREPEND, "NEWPATH", "/y");
	gd_profile_add(&p, GD_PROF_SET, "PATH", "/bin");
	env = gd_profile_apply(&p, base);
	CHECK(env != NULL);
	CHECK_STR(gd_env_get(env, "HSA_OVERRIDE_GFX_VERSION"), "10.3.0");
	CHECK(gd_env_get(env, "HSA_ENABLE_SDMA") == NULL);
	CHECK_STR(gd_env_get(env, "LD_LIBRARY_PATH"), "/opt/rocm/lib:/usr/lib");
	CHECK_STR(gd_env_get(env, "EMPTY"), "/x");
	CHECK_STR(gd_env_get(env, "NEWPATH"), "/y");
	CHECK_STR(gd_env_get(env, "PATH"), "/bin");
	{
		size_t n = 0;

		while (env && env[n])
			n++;
		CHECK_INT(n, 5);
	}
	gd_env_free(env);
	gd_profile_free(&p);
}

/* A Windows environment (the names of a real `set` listing: Path, and a
 * lower-case variable a user set): names match case-insensitively, the
 * existing spelling stays, no second PATH appears. Linux matching stays
 * exact. */
static void test_apply_fold(void)
{
	char *base[] = {"Path=C:\\Windows\\system32;C:\\Windows",
			"hip_path=C:\\Program Files\\AMD\\ROCm\\7.1\\",
			"Amd_Log_Level=1", NULL};
	struct gd_profile p;
	char **env;
	size_t n = 0;

	gd_profile_init(&p);
	gd_profile_add(&p, GD_PROF_SET, "HIP_PATH",
		       "C:\\Program Files\\AMD\\ROCm\\6.2\\");
	gd_profile_add(&p, GD_PROF_PREPEND, "PATH",
		       "C:\\Program Files\\AMD\\ROCm\\6.2\\bin");
	gd_profile_add(&p, GD_PROF_UNSET, "AMD_LOG_LEVEL", NULL);
	env = gd_profile_apply_env(&p, base, 1);
	CHECK(env != NULL);
	while (env && env[n])
		n++;
	CHECK_INT(n, 2);
	CHECK_STR(env[0], "Path=C:\\Program Files\\AMD\\ROCm\\6.2\\bin;"
			  "C:\\Windows\\system32;C:\\Windows");
	CHECK_STR(env[1], "hip_path=C:\\Program Files\\AMD\\ROCm\\6.2\\");
	CHECK_INT(gd_envv_find(env, "PATH", 1), 0);
	CHECK_INT(gd_envv_find(env, "PATH", 0), -1);
	gd_env_free(env);
	env = gd_profile_apply_env(&p, base, 0);
	n = 0;
	while (env && env[n])
		n++;
	CHECK_INT(n, 5); /* Linux: three different names, two new ones */
	CHECK_STR(gd_env_get(env, "PATH"),
		  "C:\\Program Files\\AMD\\ROCm\\6.2\\bin");
	gd_env_free(env);
	gd_profile_free(&p);
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	chmod(path, mode);
}

static void test_load_perms(const char *dir)
{
	char path[512], sub[512], fifo[512], err[600];
	struct gd_profile p;

	gd_fmt(path, sizeof path, "%s/p.profile", dir);
	write_file(path, good, 0600);
	gd_profile_init(&p);
	CHECK_INT(gd_profile_load(path, &p, err, sizeof err), 0);
	CHECK_STR(p.name, "p");
	CHECK_INT(p.items.n, 5);
	gd_profile_free(&p);

	chmod(path, 0620);
	CHECK_INT(gd_profile_load(path, &p, err, sizeof err), -EPERM);
	CHECK(strstr(err, "writable by group") && strstr(err, "chmod go-w"));
	gd_profile_free(&p);
	chmod(path, 0602);
	CHECK_INT(gd_profile_load(path, &p, err, sizeof err), -EPERM);
	CHECK(strstr(err, "writable by others") != NULL);
	gd_profile_free(&p);
	chmod(path, 0644);

	/* The directory counts too. */
	chmod(dir, 0777);
	CHECK_INT(gd_profile_load(path, &p, err, sizeof err), -EPERM);
	CHECK(strstr(err, "profile directory") && strstr(err, "chmod go-w"));
	gd_profile_free(&p);
	chmod(dir, 0700);

	gd_fmt(sub, sizeof sub, "%s/bad.profile", dir);
	write_file(sub, "set HSA_OVERRIDE_GFX_VERSION=gfx1030\n", 0600);
	CHECK_INT(gd_profile_load(sub, &p, err, sizeof err), -EINVAL);
	CHECK(strstr(err, "HSA_OVERRIDE_GFX_VERSION") != NULL);
	gd_profile_free(&p);

	gd_fmt(fifo, sizeof fifo, "%s/fifo.profile", dir);
	CHECK_INT(mkfifo(fifo, 0600), 0);
	CHECK_INT(gd_profile_load(fifo, &p, err, sizeof err), -EPERM);
	CHECK(strstr(err, "not a regular file") != NULL);
	gd_profile_free(&p);

	gd_fmt(sub, sizeof sub, "%s/missing.profile", dir);
	CHECK_INT(gd_profile_load(sub, &p, err, sizeof err), -ENOENT);
	gd_profile_free(&p);
	unlink(fifo);
	unlink(path);
	gd_fmt(sub, sizeof sub, "%s/bad.profile", dir);
	unlink(sub);
}

static void test_save(const char *dir)
{
	char path[512], d2[512], err[600] = "";
	struct gd_profile p, q;
	struct stat st;

	gd_fmt(d2, sizeof d2, "%s/cfg/gpudoctor", dir);
	gd_fmt(path, sizeof path, "%s/gpu-1002-731f-gfx1010.profile", d2);
	gd_profile_init(&p);
	gd_profile_init(&q);
	gd_profile_parse(good, strlen(good), &p, err, sizeof err);
	CHECK_INT(gd_profile_save(path, &p, err, sizeof err), 0);
	CHECK_INT(stat(d2, &st), 0);
	CHECK_INT(st.st_mode & 0777, 0700);
	CHECK_INT(stat(path, &st), 0);
	CHECK_INT(st.st_mode & 0777, 0600);
	CHECK_INT(gd_profile_load(path, &q, err, sizeof err), 0);
	CHECK_STR(q.name, "gpu-1002-731f-gfx1010");
	CHECK_INT(q.items.n, p.items.n);
	CHECK_STR(q.items.v[0].value, "10.3.0");
	/* An invalid profile is never written. */
	gd_profile_add(&p, GD_PROF_SET, "HSA_OVERRIDE_GFX_VERSION", "10.3");
	CHECK_INT(gd_profile_save(path, &p, err, sizeof err), -EINVAL);
	gd_profile_free(&p);
	gd_profile_free(&q);
}

static void test_paths(void)
{
	char *env1[] = {"HOME=/home/u", "XDG_CONFIG_HOME=/x/cfg", NULL};
	char *env2[] = {"HOME=/home/u", "XDG_CONFIG_HOME=rel", NULL};
	char *env3[] = {NULL};
	char buf[512], err[256];
	struct gd_gpu g;
	gd_ctx ctx;

	gd_ctx_init(&ctx, "/", env1);
	CHECK_INT(gd_profile_dir(&ctx, buf, sizeof buf), 0);
	CHECK_STR(buf, "/x/cfg/gpudoctor");
	CHECK_INT(
	    gd_profile_path(&ctx, "llama", buf, sizeof buf, err, sizeof err),
	    0);
	CHECK_STR(buf, "/x/cfg/gpudoctor/llama.profile");
	CHECK_INT(
	    gd_profile_path(&ctx, "../etc", buf, sizeof buf, err, sizeof err),
	    0); /* a '/' means a path */
	CHECK_INT(gd_profile_path(&ctx, "..", buf, sizeof buf, err, sizeof err),
		  -1);
	CHECK_INT(
	    gd_profile_path(&ctx, "a b", buf, sizeof buf, err, sizeof err), -1);
	/* What `try --save-as` accepts: [A-Za-z0-9_.-]+, no leading '.'. */
	CHECK(gd_profile_name_valid("rdna"));
	CHECK(gd_profile_name_valid("gpu-1002-731f-gfx1010"));
	CHECK(gd_profile_name_valid("llama_3.1-q4"));
	CHECK(!gd_profile_name_valid(""));
	CHECK(!gd_profile_name_valid(NULL));
	CHECK(!gd_profile_name_valid("../evil"));
	CHECK(!gd_profile_name_valid("a/b"));
	CHECK(!gd_profile_name_valid(".hidden"));
	CHECK(!gd_profile_name_valid(".."));
	CHECK(!gd_profile_name_valid("x y"));
	CHECK(!gd_profile_name_valid("caf\xc3\xa9"));
	gd_ctx_free(&ctx);
	gd_ctx_init(&ctx, "/", env2);
	gd_profile_dir(&ctx, buf, sizeof buf);
	CHECK_STR(buf, "/home/u/.config/gpudoctor");
	gd_ctx_free(&ctx);
	gd_ctx_init(&ctx, "/", env3);
	CHECK_INT(gd_profile_dir(&ctx, buf, sizeof buf), -1);
	gd_ctx_free(&ctx);

	memset(&g, 0, sizeof g);
	g.vendor = GD_VENDOR_AMD;
	g.pci.vendor_id = 0x1002;
	g.pci.device_id = 0x731f;
	gd_strlcpy(g.gfx, "gfx1010", sizeof g.gfx);
	gd_profile_gpu_name(&g, buf, sizeof buf);
	CHECK_STR(buf, "gpu-1002-731f-gfx1010");
	g.gfx[0] = '\0';
	gd_profile_gpu_name(&g, buf, sizeof buf);
	CHECK_STR(buf, "gpu-1002-731f");
	g.vendor = GD_VENDOR_NVIDIA;
	g.pci.vendor_id = 0x10de;
	g.pci.device_id = 0x2330;
	gd_strlcpy(g.nv.sm, "sm_90", sizeof g.nv.sm);
	gd_profile_gpu_name(&g, buf, sizeof buf);
	CHECK_STR(buf, "gpu-10de-2330-sm_90");
}

int main(void)
{
	char dir[] = "/tmp/gd-test-profile-XXXXXX";

	test_parse();
	test_parse_errors();
	test_override_rule();
	test_validate();
	test_format_roundtrip();
	test_apply();
	test_apply_fold();
	test_paths();
	CHECK(mkdtemp(dir) != NULL);
	test_load_perms(dir);
	test_save(dir);
	{
		char cmd[600];

		gd_fmt(cmd, sizeof cmd, "rm -rf '%s'", dir);
		CHECK_INT(system(cmd), 0);
	}
	return t_done("test_profile");
}
