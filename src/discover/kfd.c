/* The AMD KFD topology: /sys/class/kfd/kfd/topology/nodes/N/properties.
 *
 * Format: one "key value" pair per line, value a decimal integer, printed
 * by the kernel's node_show() and read by libhsakmt with
 * sscanf("%s %llu\n") (sources: docs/discover.md, "AMD: KFD topology and
 * HSA_OVERRIDE_GFX_VERSION"). Keys differ by kernel age (2017 kernels
 * lack gfx_target_version, domain, drm_render_minor, ...), so none is
 * required: an absent key is an unknown fact with its reason, never an
 * error. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "disc_int.h"

static int is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* One line [s, e): "key<ws>decimal<ws>". Returns 0 when it parsed. */
static int parse_line(const char *s, const char *e, char *key, size_t kcap,
		      uint64_t *v)
{
	size_t k = 0;
	uint64_t val = 0;
	int digits = 0;

	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	while (s < e && is_key_char(*s)) {
		if (k + 1 >= kcap)
			return -1;
		key[k++] = *s++;
	}
	key[k] = '\0';
	if (!k || s >= e || (*s != ' ' && *s != '\t'))
		return -1;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (s < e && *s >= '0' && *s <= '9') {
		unsigned d = (unsigned)(*s++ - '0');

		if (val > (UINT64_MAX - d) / 10)
			return -1; /* overflow: not a value the kernel prints */
		val = val * 10 + d;
		digits++;
	}
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	if (!digits || s != e)
		return -1;
	*v = val;
	return 0;
}

void gd_kfd_props_parse(const char *buf, size_t len, struct gd_kfd_props *p)
{
	const char *s = buf, *end = buf + len;

	memset(p, 0, sizeof *p);
	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		const char *nul;
		char key[sizeof p->kv[0].key];
		uint64_t v;

		if (!e)
			e = end;
		nul = memchr(s, '\0', (size_t)(e - s));
		if (e == s) {
			/* blank line: the kernel never prints one; skip */
		} else if (nul || parse_line(s, e, key, sizeof key, &v) < 0) {
			p->bad_lines++;
		} else if (p->n >= GD_KFD_MAX_PROPS) {
			p->dropped++;
		} else {
			gd_strlcpy(p->kv[p->n].key, key, sizeof p->kv[0].key);
			p->kv[p->n].v = v;
			p->n++;
		}
		s = e + 1;
	}
}

int gd_kfd_props_get(const struct gd_kfd_props *p, const char *key, uint64_t *v)
{
	/* The last occurrence wins, as it does for libhsakmt's loop. */
	for (size_t i = p->n; i-- > 0;)
		if (!strcmp(p->kv[i].key, key)) {
			*v = p->kv[i].v;
			return 1;
		}
	return 0;
}

int gd_gfx_from_parts(unsigned major, unsigned minor, unsigned step, char *out,
		      size_t cap)
{
	if (cap)
		out[0] = '\0';
	/* The kernel table (docs/discover.md) only has minor/stepping < 16; a
	 * target name spells each as one hex digit, so larger ones have no
	 * gfx name. */
	if (major == 0 || minor > 15 || step > 15)
		return -1;
	gd_fmt(out, cap, "gfx%u%x%x", major, minor, step);
	return 0;
}

int gd_gfx_from_version(uint32_t v, char *out, size_t cap)
{
	/* gfx_target_version = major*10000 + minor*100 + stepping */
	return gd_gfx_from_parts(v / 10000, (v / 100) % 100, v % 100, out, cap);
}

static void num_from(gd_num *f, const struct gd_kfd_props *p, const char *key,
		     unsigned id, const char *src)
{
	uint64_t v;

	if (gd_kfd_props_get(p, key, &v))
		gd_num_set(f, v, src);
	else
		gd_num_unknown(f, GD_UNKNOWN, "no %s in node %u", key, id);
}

void gd_kfd_node_from_props(struct gd_kfd_node *n, unsigned id,
			    const struct gd_kfd_props *p)
{
	char src[64];
	uint64_t v;

	memset(n, 0, sizeof *n);
	n->id = id;
	gd_fmt(src, sizeof src, "kfd node %u", id);
	num_from(&n->simd_count, p, "simd_count", id, src);
	num_from(&n->simd_per_cu, p, "simd_per_cu", id, src);
	num_from(&n->cpu_cores_count, p, "cpu_cores_count", id, src);
	num_from(&n->local_mem_size, p, "local_mem_size", id, src);
	num_from(&n->drm_render_minor, p, "drm_render_minor", id, src);
	num_from(&n->location_id, p, "location_id", id, src);
	num_from(&n->domain, p, "domain", id, src);
	num_from(&n->device_id, p, "device_id", id, src);
	num_from(&n->vendor_id, p, "vendor_id", id, src);
	num_from(&n->fw_version, p, "fw_version", id, src);
	num_from(&n->sdma_fw_version, p, "sdma_fw_version", id, src);
	num_from(&n->num_xcc, p, "num_xcc", id, src);
	num_from(&n->max_engine_clk_fcompute, p, "max_engine_clk_fcompute", id,
		 src);
	num_from(&n->unique_id, p, "unique_id", id, src);
	num_from(&n->hive_id, p, "hive_id", id, src);
	gd_num_unknown(&n->gpu_id, GD_UNKNOWN, "gpu_id not read");
	gd_num_unknown(&n->mem_banks_bytes, GD_UNKNOWN, "no mem_banks read");

	if (gd_kfd_props_get(p, "gfx_target_version", &v)) {
		n->has_gfx_target_version = 1;
		n->gfx_target_version = v > UINT32_MAX ? 0 : (uint32_t)v;
		if (gd_gfx_from_version(n->gfx_target_version, n->gfx,
					sizeof n->gfx) < 0 &&
		    v)
			gd_fmt(n->why, sizeof n->why,
			       "gfx_target_version %llu does not decode",
			       (unsigned long long)v);
	}
	n->cpu_and_gpu = gd_known(&n->cpu_cores_count) &&
			 n->cpu_cores_count.v > 0 && gd_known(&n->simd_count) &&
			 n->simd_count.v > 0;
	if (!gd_known(&n->simd_count))
		gd_num_unknown(&n->cu_count, GD_UNKNOWN,
			       "no simd_count in node %u", id);
	else if (!gd_known(&n->simd_per_cu) || n->simd_per_cu.v == 0)
		gd_num_unknown(&n->cu_count, GD_UNKNOWN,
			       "no usable simd_per_cu in node %u", id);
	else
		gd_num_set(&n->cu_count, n->simd_count.v / n->simd_per_cu.v,
			   "simd_count / simd_per_cu");
	if (gd_known(&n->location_id)) {
		/* location_id = (bus << 8) | (dev << 3) | fn; domain is
		 * absent on old kernels, where it was always 0. */
		uint64_t loc = n->location_id.v;
		uint64_t dom = gd_known(&n->domain) ? n->domain.v : 0;

		gd_fmt(
		    n->bdf, sizeof n->bdf, "%04x:%02x:%02x.%x",
		    (unsigned)(dom & 0xfffff),
		    /* 5 digits: VMD domains */ (unsigned)((loc >> 8) & 0xff),
		    (unsigned)((loc >> 3) & 0x1f), (unsigned)(loc & 7));
	}
}

int gd_kfd_node_is_gpu(const struct gd_kfd_node *n)
{
	/* libhsakmt: "Bail out early, if a CPU node" = NumFComputeCores 0 */
	return gd_known(&n->simd_count) && n->simd_count.v > 0;
}

/* Frame-buffer heaps (HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC 1 / PRIVATE 2,
 * libhsakmt's; docs/discover.md) of nodes/N/mem_banks/M/properties. */
static void read_mem_banks(gd_ctx *ctx, const char *dir, struct gd_kfd_node *n)
{
	char path[256], buf[1024];
	gd_strvec banks;
	uint64_t total = 0;
	int found = 0;

	gd_fmt(path, sizeof path, "%s/mem_banks", dir);
	if (gd_fs_list(&ctx->fs, path, &banks) < 0)
		return;
	for (size_t i = 0; i < banks.n && i < 64; i++) {
		struct gd_kfd_props p;
		uint64_t type, size;
		size_t len;
		int rc;

		gd_fmt(path, sizeof path, "%s/mem_banks/%s/properties", dir,
		       banks.v[i]);
		rc = gd_fs_read(&ctx->fs, path, buf, sizeof buf, &len);
		if (rc < 0 && rc != -EFBIG)
			continue;
		gd_kfd_props_parse(buf, len, &p);
		if (gd_kfd_props_get(&p, "heap_type", &type) &&
		    (type == 1 || type == 2) &&
		    gd_kfd_props_get(&p, "size_in_bytes", &size)) {
			total += size;
			found = 1;
		}
	}
	gd_strvec_free(&banks);
	if (found)
		gd_num_set(&n->mem_banks_bytes, total, "kfd mem_banks");
}

static void read_node(gd_ctx *ctx, unsigned id, struct gd_kfd_node *n,
		      struct gd_kfd_props *p)
{
	char dir[128], path[192], line[64];
	char *buf = NULL;
	size_t len = 0;
	uint64_t gid;
	int rc;

	gd_fmt(dir, sizeof dir, GD_KFD_NODES "/%u", id);
	gd_fmt(path, sizeof path, "%s/properties", dir);
	/* 64 KiB: ten times the largest real file, so an endless or binary
	 * file is cut there and parsed as far as it is text. */
	rc = gd_fs_read_alloc(&ctx->fs, path, GD_FS_SMALL, &buf, &len);
	if (rc < 0 && rc != -EFBIG) {
		gd_kfd_props_parse("", 0, p);
		gd_kfd_node_from_props(n, id, p);
		gd_fmt(n->why, sizeof n->why, "properties unreadable: %s",
		       gd_fs_strerror(rc));
		gd_diag_add(ctx, GD_DIAG_WARN, path, "unreadable: %s",
			    gd_fs_strerror(rc));
		return;
	}
	gd_kfd_props_parse(buf, len, p);
	free(buf);
	gd_kfd_node_from_props(n, id, p);
	if (rc == -EFBIG) {
		n->truncated = 1;
		gd_diag_add(ctx, GD_DIAG_WARN, path,
			    "larger than %d bytes; read the first part only",
			    GD_FS_SMALL);
	}
	if (p->bad_lines)
		gd_diag_add(ctx, GD_DIAG_INFO, path,
			    "%d line(s) are not \"key number\"; ignored",
			    p->bad_lines);
	gd_fmt(path, sizeof path, "%s/gpu_id", dir);
	if (gd_fs_read_line(&ctx->fs, path, line, sizeof line) == 0 &&
	    gd_parse_u64(line, 10, &gid) == 0)
		gd_num_set(&n->gpu_id, gid, "gpu_id");
	if (gd_kfd_node_is_gpu(n))
		read_mem_banks(ctx, dir, n);
}

int gd_kfd_scan(gd_ctx *ctx, struct gd_kfd_node **nodes, size_t *n, char *why,
		size_t whycap)
{
	gd_strvec names;
	struct gd_kfd_node *out;
	struct gd_kfd_props *p;
	size_t k = 0;
	int rc;

	*nodes = NULL;
	*n = 0;
	why[0] = '\0';
	rc = gd_fs_list(&ctx->fs, GD_KFD_NODES, &names);
	if (rc < 0) {
		gd_fmt(why, whycap, "no KFD topology (%s: %s)", GD_KFD_NODES,
		       gd_fs_strerror(rc));
		return rc == -ENOMEM ? rc : 0;
	}
	out = calloc(names.n ? names.n : 1, sizeof *out);
	p = malloc(sizeof *p);
	if (!out || !p) {
		free(out);
		free(p);
		gd_strvec_free(&names);
		return -ENOMEM;
	}
	/* gd_fs_list sorts naturally, so this is node order 0, 1, ... 10. */
	for (size_t i = 0; i < names.n; i++) {
		uint32_t id;

		if (gd_parse_u32(names.v[i], 10, &id) < 0)
			continue;
		read_node(ctx, id, &out[k++], p);
	}
	free(p);
	gd_strvec_free(&names);
	if (!k)
		gd_fmt(why, whycap, "KFD topology has no nodes (%s is empty)",
		       GD_KFD_NODES);
	*nodes = out;
	*n = k;
	return 0;
}
