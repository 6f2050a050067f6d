// SPDX-License-Identifier: GPL-2.0-only
/* The plan tests' shared fixture (plan_fixture.h). */
#include "plan_fixture.h"

int teardown(void **state)
{
	struct fixture *fx = *state;

	if (fx) {
		if (fx->built)
			np_plan_free(&fx->p);
		golden_teardown((void **)&fx->g);
		free(fx);
	}
	*state = NULL;
	return 0;
}

struct np_plan *plan_for(void **state, const char *tree, const char *ifname,
			 enum np_profile prof, double rtt, double bw, const struct np_kmods *km)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	*state = fx;
	fx->g = golden_run_path((void **)&fx->g, tree, ifname, rtt, bw);
	assert_int_equal(np_plan_build(&fx->g->a, &fx->g->rep, prof, km, &fx->p), 0);
	fx->built = true;
	assert_int_equal(np_plan_verify(&fx->p, &fx->g->a, &fx->g->rep, &fx->g->cur), 0);
	return &fx->p;
}

const struct np_plan_line *line(const struct np_plan *p, enum np_plan_kind k, const char *key)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->l[i].kind == k && !strcmp(p->l[i].key, key))
			return &p->l[i];
	return NULL;
}

const struct np_plan_line *need(const struct np_plan *p, enum np_plan_kind k, const char *key)
{
	const struct np_plan_line *l = line(p, k, key);

	if (!l)
		fail_msg("no %s line for %s", np_plan_kind_name(k), key);
	return l;
}

bool listed(const char *const *ids, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(ids[i], id))
			return true;
	return false;
}

void assert_lines_sound(const struct np_plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct np_plan_line *l = &p->l[i];

		assert_true(l->why[0]);
		if (l->kind == NP_PLAN_NOTE)
			continue;
		assert_true(l->cost[0]);
		assert_non_null(l->checks[0]);
		for (size_t j = 0; j < NP_PLAN_CHECKS && l->checks[j]; j++)
			assert_non_null(np_check_find(l->checks[j]));
		if (l->kind == NP_PLAN_SYSCTL || l->kind == NP_PLAN_LINK)
			assert_string_not_equal(l->current, l->planned);
	}
}

char *render(const struct np_plan *p, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (json)
		np_render_plan_json(f, p);
	else
		np_render_plan_text(f, p, 80);
	assert_int_equal(fclose(f), 0);
	if (json)
		assert_json(buf, len);
	return buf;
}
