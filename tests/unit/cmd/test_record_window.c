// SPDX-License-Identifier: GPL-2.0-only
/*
 * doctor --at's reading of a recording (record_read.c): the two frames that bound a window,
 * with their counters and the configuration in force, and every way a window is not covered
 * (before the start, after the end, across a restart or a pause) answered 1 with a reason,
 * never as a window with rates.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/rec_store_fixture.h"
#include "record_read.h"
#include "when.h"

static const char config_a[] = "the configuration sample A";
static const char config_b[] = "the configuration sample B, after a change";

/* Seconds from..to (excluded), each with a configuration (B from second change on). */
static void put_cfg(struct np_rec_writer *w, int64_t from, int64_t to, int64_t change)
{
	struct frame_buf fb;
	char err[256];

	for (int64_t t = from; t < to; t++) {
		struct np_rec_sample *s = mk(&fb, t, N, false);

		s->config = t >= change ? config_b : config_a;
		s->config_len = t >= change ? sizeof(config_b) : sizeof(config_a);
		assert_int_equal(np_rec_writer_append(w, s, err, sizeof(err)), 0);
	}
}

static double at_sec(int64_t t)
{
	return (double)(BASE_W + t * SEC) / 1e9;
}

static int window(double at, double len, struct np_rec_moment *m0, struct np_rec_moment *m1,
		  char *why, size_t n)
{
	memset(m0, 0, sizeof(*m0));
	memset(m1, 0, sizeof(*m1));
	why[0] = '\0';
	return np_rec_window(store, at, len, m0, m1, why, n);
}

static void test_window_inside(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w = wopen(&o);
	struct np_rec_moment m0, m1;
	char why[600];

	(void)state;
	put_cfg(w, 0, 60, 30);
	np_rec_writer_close(w);
	assert_int_equal(window(at_sec(10), 5, &m0, &m1, why, sizeof(why)), 0);
	assert_true(m0.wall_ns == BASE_W + 10 * SEC);
	assert_true(m1.wall_ns == BASE_W + 15 * SEC);
	assert_true(m1.mono_ns - m0.mono_ns == 5 * SEC);
	assert_int_equal(m0.n, N);
	for (size_t i = 0; i < N; i++) {
		assert_true(m0.v[i] == val(i, 10));
		assert_true(m1.v[i] == val(i, 15));
	}
	assert_string_equal(m1.name[3], "c3");
	assert_int_equal(m1.config_len, sizeof(config_a));
	assert_memory_equal(m1.config, config_a, sizeof(config_a));
	np_rec_moment_free(&m0);
	np_rec_moment_free(&m1);
	/* Across the change: the configuration at the window's end. */
	assert_int_equal(window(at_sec(28), 4, &m0, &m1, why, sizeof(why)), 0);
	assert_memory_equal(m1.config, config_b, sizeof(config_b));
	np_rec_moment_free(&m0);
	np_rec_moment_free(&m1);
	/* Half a second early still takes the frame of that second. */
	assert_int_equal(window(at_sec(10) - 0.4, 1, &m0, &m1, why, sizeof(why)), 0);
	assert_true(m0.wall_ns == BASE_W + 10 * SEC);
	np_rec_moment_free(&m0);
	np_rec_moment_free(&m1);
}

static void test_window_not_covered(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w = wopen(&o);
	struct np_rec_moment m0, m1;
	char why[600];

	(void)state;
	put_cfg(w, 100, 120, 1000);
	np_rec_writer_close(w);
	/* A restart 30 s later: the recorder was not running from 119 to 150. */
	w = wopen(&o);
	put_cfg(w, 150, 170, 1000);
	np_rec_writer_close(w);

	/* Before the recording: the first frame is far after the window. */
	assert_int_equal(window(at_sec(50), 5, &m0, &m1, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "no sample"));
	/* In the gap, and across it. */
	assert_int_equal(window(at_sec(130), 2, &m0, &m1, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "no sample"));
	assert_int_equal(window(at_sec(117), 5, &m0, &m1, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "gap"));
	/* After the end, and a window running past it. */
	assert_int_equal(window(at_sec(200), 2, &m0, &m1, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "ends before"));
	assert_int_equal(window(at_sec(168), 5, &m0, &m1, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "ends before"));
	/* Just after the restart is covered again. */
	assert_int_equal(window(at_sec(151), 3, &m0, &m1, why, sizeof(why)), 0);
	assert_true(m1.wall_ns == BASE_W + 154 * SEC);
	np_rec_moment_free(&m0);
	np_rec_moment_free(&m1);
}

/* A window only partly covered is not judged (no rate spans a gap, and a window that began
 * before the recorder did is not another window shifted to start with it), and the reason
 * says what of the window the recording holds. */
static void test_window_partly_covered(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w = wopen(&o);
	struct np_rec_moment m0, m1;
	char why[600], when[40], want[200];

	(void)state;
	put_cfg(w, 100, 120, 1000);
	np_rec_writer_close(w);
	w = wopen(&o);
	put_cfg(w, 150, 170, 1000);
	np_rec_writer_close(w);

	/* The recorder started within the window: its first 5 s are not recorded. */
	assert_int_equal(window(at_sec(145), 10, &m0, &m1, why, sizeof(why)), 1);
	assert_null(m0.v);
	assert_null(m1.v);
	assert_non_null(strstr(why, "started or came back within the window"));
	np_when_format(at_sec(150), when, sizeof(when));
	snprintf(want, sizeof(want), "the recording covers %s to ", when);
	assert_non_null(strstr(why, want));
	snprintf(want, sizeof(want), "--at @%lld --window 5", (long long)at_sec(150));
	assert_non_null(strstr(why, want));
	/* A gap inside: both parts are named. */
	assert_int_equal(window(at_sec(110), 50, &m0, &m1, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "gap"));
	np_when_format(at_sec(119), when, sizeof(when));
	assert_non_null(strstr(why, when));
	np_when_format(at_sec(150), when, sizeof(when));
	assert_non_null(strstr(why, when));
	/* A cadence late is still "at" (frames are a second apart). */
	assert_int_equal(window(at_sec(149) + 0.2, 3, &m0, &m1, why, sizeof(why)), 0);
	np_rec_moment_free(&m0);
	np_rec_moment_free(&m1);
}

static void test_window_no_config(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w = wopen(&o);
	struct np_rec_moment m0, m1;
	char why[600];

	(void)state;
	put(w, 0, 20);
	np_rec_writer_close(w);
	assert_int_equal(window(at_sec(5), 2, &m0, &m1, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "no configuration"));
	assert_null(m0.v);
	assert_null(m1.v);
}

static void test_window_no_recording(void **state)
{
	struct np_rec_moment m0, m1;
	char why[600];

	(void)state;
	/* The directory does not exist (the writer never ran). */
	assert_true(window(at_sec(5), 2, &m0, &m1, why, sizeof(why)) < 0);
	assert_true(why[0] != '\0');
}

static void test_config_file(void **state)
{
	struct np_rec_moment m = { .config = (char *)config_a, .config_len = sizeof(config_a) };
	char path[4200], buf[64];
	struct stat st;
	int fd;

	(void)state;
	assert_int_equal(np_rec_config_file(&m, path, sizeof(path)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), sizeof(config_a));
	assert_memory_equal(buf, config_a, sizeof(config_a));
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_window_inside, setup, np_test_dir_teardown),
		cmocka_unit_test_setup_teardown(test_window_not_covered, setup,
						np_test_dir_teardown),
		cmocka_unit_test_setup_teardown(test_window_partly_covered, setup,
						np_test_dir_teardown),
		cmocka_unit_test_setup_teardown(test_window_no_config, setup, np_test_dir_teardown),
		cmocka_unit_test_setup_teardown(test_window_no_recording, setup,
						np_test_dir_teardown),
		cmocka_unit_test(test_config_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
