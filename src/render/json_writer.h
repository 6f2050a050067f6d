/* SPDX-License-Identifier: GPL-2.0-only */
/* A small streaming JSON writer: the caller opens/closes objects, the writer does commas,
 * escaping and indentation. Writes to an injected FILE *. */
#ifndef NP_JSON_WRITER_H
#define NP_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define NP_JSON_DEPTH 32

struct np_json {
	FILE *out;
	bool pretty;
	int depth;
	bool first[NP_JSON_DEPTH];
	bool after_key;
};

void np_json_init(struct np_json *j, FILE *out, bool pretty);
void np_json_obj_open(struct np_json *j);
void np_json_obj_close(struct np_json *j);
void np_json_arr_open(struct np_json *j);
void np_json_arr_close(struct np_json *j);
void np_json_key(struct np_json *j, const char *key);
void np_json_str(struct np_json *j, const char *s);
void np_json_u64(struct np_json *j, uint64_t v);
void np_json_int(struct np_json *j, int64_t v);
/* NaN and infinities become null. */
void np_json_double(struct np_json *j, double v);
/* A number with a fixed count of decimals (times in seconds since the epoch, which %g would
 * round to the ten seconds). */
void np_json_fixed(struct np_json *j, double v, int decimals);
void np_json_kv_fixed(struct np_json *j, const char *key, double v, int decimals);
void np_json_bool(struct np_json *j, bool v);
void np_json_null(struct np_json *j);
/* An object member, key and value in one call (np_json_str's NULL is null here too). */
void np_json_kv_str(struct np_json *j, const char *key, const char *s);
void np_json_kv_u64(struct np_json *j, const char *key, uint64_t v);
void np_json_kv_int(struct np_json *j, const char *key, int64_t v);
void np_json_kv_double(struct np_json *j, const char *key, double v);
void np_json_kv_bool(struct np_json *j, const char *key, bool v);
void np_json_kv_null(struct np_json *j, const char *key);
/* A member whose value is an object or array, opened here and closed by the caller. */
void np_json_key_obj_open(struct np_json *j, const char *key);
void np_json_key_arr_open(struct np_json *j, const char *key);
/* Ends the document with a newline. */
void np_json_end(struct np_json *j);

#endif
