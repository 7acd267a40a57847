/* The Windows registry as gpudoctor reads it: an in-memory tree, filled from
 * regedit export files ("Windows Registry Editor Version 5.00", as `reg
 * export` writes them: UTF-16LE with a BOM; UTF-8 and REGEDIT4 accepted) or,
 * on Windows, from the live registry. Several files merge into one tree in
 * the order given, deletions ([-KEY], "name"=-) included, as regedit
 * imports them. A pure parser: bytes in, tree out, no I/O. */
#ifndef GD_WINREG_H
#define GD_WINREG_H

#include <stddef.h>
#include <stdint.h>

/* Value types, numbered as the SDK's REG_* (hex(N) in an export;
 * docs/windows.md §S). */
enum {
	GD_REG_NONE = 0,
	GD_REG_SZ = 1,
	GD_REG_EXPAND_SZ = 2,
	GD_REG_BINARY = 3,
	GD_REG_DWORD = 4,
	GD_REG_MULTI_SZ = 7,
	GD_REG_QWORD = 11,
};

typedef struct gd_reg_value {
	char *name;    /* "" for the default value (@) */
	unsigned type; /* GD_REG_* or any other hex(N) number */
	/* SZ/EXPAND_SZ: UTF-8, NUL-terminated. MULTI_SZ: UTF-8 strings each
	 * NUL-terminated, then one more NUL. DWORD/QWORD: 4/8 bytes little
	 * endian. Others: the bytes as stored. */
	uint8_t *data;
	size_t len;
} gd_reg_value;

/* A hash index over a key's subkeys or values by case-folded name, kept
 * once they pass a few (winreg.c): a 10 MB export holds 100,000 keys, and
 * a linear search per line made parsing it quadratic. slot[i]: 0 empty,
 * SIZE_MAX deleted, else the element's index + 1. */
typedef struct gd_reg_index {
	size_t *slot;
	size_t cap, used; /* used counts deleted slots too */
} gd_reg_index;

typedef struct gd_reg_key {
	char *name; /* one path component, as spelled first */
	struct gd_reg_key **sub;
	size_t nsub, capsub;
	gd_reg_value *val;
	size_t nval, capval;
	gd_reg_index isub, ival;
} gd_reg_key;

typedef struct gd_reg {
	gd_reg_key
	    root;     /* children: HKEY_LOCAL_MACHINE, HKEY_CURRENT_USER... */
	size_t nodes; /* keys + values, capped against hostile input */
} gd_reg;

void gd_reg_init(gd_reg *r);
void gd_reg_free(gd_reg *r);

/* Merges one export file into r. Returns the number of keys and values
 * set, or -1 when the text is not a registry export (err says why, with
 * the line). Malformed lines inside a valid file are skipped, as regedit
 * does, and counted in *skipped (may be NULL). */
int gd_reg_parse(gd_reg *r, const void *buf, size_t len, int *skipped,
		 char *err, size_t errcap);

/* A key by path, case-insensitive, '\' separated; "HKLM\..." and
 * "HKCU\..." abbreviate HKEY_LOCAL_MACHINE / HKEY_CURRENT_USER. NULL when
 * absent. Creating form for loaders: gd_reg_mkkey. */
gd_reg_key *gd_reg_find(const gd_reg *r, const char *path);
gd_reg_key *gd_reg_mkkey(gd_reg *r, const char *path);
gd_reg_key *gd_reg_sub(const gd_reg_key *k, const char *name);

/* [-KEY] and "name"=- of an export: the key with its subtree / the value. */
void gd_reg_delete_key(gd_reg *r, const char *path);
void gd_reg_delete_value(gd_reg_key *k, const char *name);

const gd_reg_value *gd_reg_get(const gd_reg_key *k, const char *name);
/* Sets (replaces) a value; data is copied. 0 or -1 (no memory, cap). */
int gd_reg_set(gd_reg *r, gd_reg_key *k, const char *name, unsigned type,
	       const void *data, size_t len);

/* A string value (SZ, EXPAND_SZ unexpanded, first string of MULTI_SZ) into
 * buf; 0, or -1 when absent or of another type. */
int gd_reg_str(const gd_reg_key *k, const char *name, char *buf, size_t cap);
/* A number: DWORD, QWORD, or BINARY of 1..8 bytes (little endian, as
 * MemorySize is stored); 0 or -1. */
int gd_reg_u64(const gd_reg_key *k, const char *name, uint64_t *out);

/* The keys at paths (each with its subtree; absent ones are left out) as
 * one regedit export file: UTF-16LE with a BOM, exactly as `reg export`
 * writes it (winreg_export.c), malloc'ed into *out. At most max_keys keys
 * (0: no limit); *nkeys (may be NULL) gets how many were written. 0, 1 when
 * max_keys cut the export short, -1 when out of memory. */
int gd_reg_export(const gd_reg *r, const char *const *paths, size_t npaths,
		  size_t max_keys, void **out, size_t *len, size_t *nkeys);

#endif
