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

static void open(struct np_json *j, char c)
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

void np_json_obj_open(struct np_json *j) { open(j, '{'); }
void np_json_obj_close(struct np_json *j) { close_(j, '}'); }
void np_json_arr_open(struct np_json *j) { open(j, '['); }
void np_json_arr_close(struct np_json *j) { close_(j, ']'); }

static void write_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
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

void np_json_end(struct np_json *j)
{
	fputc('\n', j->out);
}
