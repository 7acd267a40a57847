/* explain's input decoding: what a log holds on disk -> UTF-8 lines, '\n'
 * separated, for the matcher (which stays line-by-line regexec).
 *
 *  - UTF-16: PowerShell's `>` and Out-File write UTF-16LE with a BOM
 *    (Windows PowerShell 5.1), some tools write it without; UTF-16BE with
 *    a BOM also occurs. Without a BOM, UTF-16LE is recognised by ASCII text
 *    with a NUL after every character.
 *  - NUL bytes: a writer that keeps its offset after `logrotate
 *    copytruncate`, or a crash into a preallocated file, leaves NUL runs;
 *    regexec would stop at the first one. A run ends the current line.
 *  - ANSI colour and cursor sequences (CSI "ESC [ ... final", OSC "ESC ]
 *    ... BEL/ST", two-byte escapes) are dropped: "\033[31merror" must
 *    match "error".
 *  - CR, CRLF: line breaks (Windows logs, tqdm/progress bars that redraw
 *    a line with '\r'). */
#include "explain.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* UTF-16LE without a BOM: at least 3/4 of the first 256 code units are
 * ASCII characters (non-zero low byte, zero high byte). NUL runs (both
 * bytes zero) do not count, so a UTF-8 log with holes is not mistaken. */
static int looks_utf16le(const unsigned char *b, size_t n)
{
	size_t units = n / 2 < 256 ? n / 2 : 256, ascii = 0;

	for (size_t i = 0; i < units; i++)
		ascii += b[2 * i] && b[2 * i] < 0x80 && !b[2 * i + 1];
	return units >= 2 && ascii * 4 >= units * 3;
}

int gd_explain_detect(const char *buf, size_t n, size_t *bom)
{
	const unsigned char *b = (const unsigned char *)buf;

	*bom = 0;
	if (n >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf) {
		*bom = 3;
		return GD_ENC_UTF8;
	}
	if (n >= 2 && b[0] == 0xff && b[1] == 0xfe) {
		*bom = 2;
		return GD_ENC_UTF16LE;
	}
	if (n >= 2 && b[0] == 0xfe && b[1] == 0xff) {
		*bom = 2;
		return GD_ENC_UTF16BE;
	}
	return looks_utf16le(b, n) ? GD_ENC_UTF16LE : GD_ENC_UTF8;
}

static size_t put_utf8(char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | (c >> 6));
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | (c >> 12));
		o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (c >> 18));
	o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* UTF-16 -> UTF-8; a lone surrogate becomes U+FFFD, an odd last byte is
 * dropped. out has room for n / 2 * 3 bytes. */
static size_t utf16_to_utf8(const unsigned char *b, size_t n, int be, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i + 1 < n; i += 2) {
		uint32_t c = be ? (uint32_t)(b[i] << 8 | b[i + 1])
				: (uint32_t)(b[i + 1] << 8 | b[i]);

		if (c >= 0xd800 && c < 0xdc00 && i + 3 < n) {
			uint32_t lo = be ? (uint32_t)(b[i + 2] << 8 | b[i + 3])
					 : (uint32_t)(b[i + 3] << 8 | b[i + 2]);

			if (lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) +
				    (lo - 0xdc00);
				i += 2;
			} else {
				c = 0xfffd;
			}
		} else if (c >= 0xd800 && c < 0xe000) {
			c = 0xfffd;
		}
		o += put_utf8(out + o, c);
	}
	return o;
}

/* Length of the escape sequence at b[0] == ESC (n > 0 bytes left). */
static size_t escape_len(const unsigned char *b, size_t n)
{
	size_t i = 2;

	if (n < 2)
		return 1;
	if (b[1] == '[') { /* CSI: parameters, intermediates, one final */
		while (i < n && b[i] >= 0x20 && b[i] <= 0x3f)
			i++;
		return i < n && b[i] >= 0x40 && b[i] <= 0x7e ? i + 1 : i;
	}
	if (b[1] == ']') { /* OSC: up to BEL or ESC '\' (bounded) */
		for (; i < n && i < 4096; i++) {
			if (b[i] == 0x07)
				return i + 1;
			if (b[i] == 0x1b && i + 1 < n && b[i + 1] == '\\')
				return i + 2;
			if (b[i] == '\n')
				return i;
		}
		return i;
	}
	/* ESC =, ESC ( B, ESC # 8: intermediates (0x20-0x2f), then a final */
	for (i = 1; i < n && b[i] >= 0x20 && b[i] <= 0x2f;)
		i++;
	return i < n ? i + 1 : i;
}

/* In place (never longer): NUL runs and CR/CRLF to '\n', escapes out;
 * buf[n] must be a NUL (strcspn finds the next byte to act on). A
 * NUL run is a line break even at the start of the buffer: the tail
 * window of a big log (explain.c) drops its first, partial line, and when
 * the window starts inside a hole (a sparse or preallocated log) that
 * partial line is the hole, not the first real line after it. */
static size_t clean_lines(char *buf, size_t n)
{
	unsigned char *b = (unsigned char *)buf;
	size_t o = 0, i = 0;

	while (i < n) {
		/* a run of ordinary bytes: moved only once something was
		 * taken out before it (most logs: never) */
		size_t j = i + strcspn(buf + i, "\r\x1b"); /* stops at NUL */

		if (j > n)
			j = n;
		if (o != i)
			memmove(b + o, b + i, j - i);
		o += j - i;
		i = j;
		if (i >= n)
			break;
		if (b[i] == 0x1b) {
			i += escape_len(b + i, n - i);
		} else {
			int nul = b[i] == '\0';

			while (i < n && b[i] == (nul ? '\0' : '\r'))
				i++;
			if (!nul && i < n && b[i] == '\n')
				i++; /* CRLF, CR CR LF */
			if (!nul || !o || b[o - 1] != '\n')
				b[o++] = '\n';
		}
	}
	return o;
}

size_t gd_explain_decode_inplace(char *buf, size_t n)
{
	size_t bom = 0;

	if (gd_explain_detect(buf, n, &bom) != GD_ENC_UTF8)
		return (size_t)-1;
	if (bom)
		memmove(buf, buf + bom, n - bom);
	buf[n - bom] = '\0';
	n = clean_lines(buf, n - bom);
	buf[n] = '\0';
	return n;
}

char *gd_explain_decode(const char *buf, size_t n, int enc, size_t *out_len)
{
	size_t len, bom = 0;
	char *out;

	if (enc == GD_ENC_DETECT)
		enc = gd_explain_detect(buf, n, &bom);
	buf += bom;
	n -= bom;
	out = malloc(enc == GD_ENC_UTF8 ? n + 1 : n / 2 * 3 + 1);
	if (!out)
		return NULL;
	if (enc == GD_ENC_UTF8) {
		memcpy(out, buf, n);
		len = n;
	} else {
		len = utf16_to_utf8((const unsigned char *)buf, n,
				    enc == GD_ENC_UTF16BE, out);
	}
	out[len] = '\0';
	len = clean_lines(out, len);
	out[len] = '\0';
	*out_len = len;
	return out;
}
