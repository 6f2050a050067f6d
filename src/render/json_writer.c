// SPDX-License-Identifier: GPL-2.0-only
/* Streaming JSON writer with RFC 8259 string escaping. */
#include "json_writer.h"

#include <math.h>

void np_json_init(struct np_json *j, FILE *out, bool pretty)
{
	j->out = out;
	j->pretty = pretty;
	j->depth = 0;
	j->first[0] = true;
	j->after_key = false;
}

static void indent(struct np_json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->out);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* Before any value: a comma between siblings, nothing right after a key. */
static void value_prefix(struct np_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->out);
		indent(j);
	}
	j->first[j->depth] = false;
}

static void open_nested(struct np_json *j, char c)
{
	value_prefix(j);
	fputc(c, j->out);
	if (j->depth + 1 < NP_JSON_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct np_json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->out);
}

void np_json_obj_open(struct np_json *j) { open_nested(j, '{'); }
void np_json_obj_close(struct np_json *j) { close_(j, '}'); }
void np_json_arr_open(struct np_json *j) { open_nested(j, '['); }
void np_json_arr_close(struct np_json *j) { close_(j, ']'); }

/* The length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs, surrogates or
 * code points past U+10FFFF), 0 if there is none. p is NUL-terminated, and NUL is never a
 * continuation byte, so no read goes past the terminator. */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/* Strings come from files and drivers, so they may hold any byte: the output stays valid JSON
 * (RFC 8259 wants UTF-8), a byte that starts no valid sequence becomes U+FFFD. */
static void write_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		size_t n;

		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				fprintf(out, "\\u%04x", *p);
				break;
			}
			n = utf8_len(p);
			if (!n) {
				fputs("\\ufffd", out);
				break;
			}
			fwrite(p, 1, n, out);
			p += n - 1;
		}
	}
	fputc('"', out);
}

void np_json_key(struct np_json *j, const char *key)
{
	value_prefix(j);
	write_string(j->out, key);
	fputs(j->pretty ? ": " : ":", j->out);
	j->after_key = true;
}

void np_json_str(struct np_json *j, const char *s)
{
	value_prefix(j);
	if (s)
		write_string(j->out, s);
	else
		fputs("null", j->out);
}

void np_json_u64(struct np_json *j, uint64_t v)
{
	value_prefix(j);
	fprintf(j->out, "%llu", (unsigned long long)v);
}

void np_json_int(struct np_json *j, int64_t v)
{
	value_prefix(j);
	fprintf(j->out, "%lld", (long long)v);
}

void np_json_double(struct np_json *j, double v)
{
	value_prefix(j);
	if (isnan(v) || isinf(v))
		fputs("null", j->out);
	else if (v == (double)(long long)v && fabs(v) < 9e15)
		fprintf(j->out, "%lld", (long long)v);
	else
		fprintf(j->out, "%.6g", v);
}

void np_json_fixed(struct np_json *j, double v, int decimals)
{
	value_prefix(j);
	if (isnan(v) || isinf(v))
		fputs("null", j->out);
	else
		fprintf(j->out, "%.*f", decimals, v);
}

void np_json_kv_fixed(struct np_json *j, const char *key, double v, int decimals)
{
	np_json_key(j, key);
	np_json_fixed(j, v, decimals);
}

void np_json_bool(struct np_json *j, bool v)
{
	value_prefix(j);
	fputs(v ? "true" : "false", j->out);
}

void np_json_null(struct np_json *j)
{
	value_prefix(j);
	fputs("null", j->out);
}

/* Key and value in one call: the common case of an object member. */
#define KV(kind, type)								\
	void np_json_kv_##kind(struct np_json *j, const char *key, type v)	\
	{									\
		np_json_key(j, key);						\
		np_json_##kind(j, v);						\
	}
KV(str, const char *)
KV(u64, uint64_t)
KV(int, int64_t)
KV(double, double)
KV(bool, bool)
#undef KV

void np_json_kv_null(struct np_json *j, const char *key)
{
	np_json_key(j, key);
	np_json_null(j);
}

void np_json_key_obj_open(struct np_json *j, const char *key)
{
	np_json_key(j, key);
	np_json_obj_open(j);
}

void np_json_key_arr_open(struct np_json *j, const char *key)
{
	np_json_key(j, key);
	np_json_arr_open(j);
}

void np_json_end(struct np_json *j)
{
	fputc('\n', j->out);
}
