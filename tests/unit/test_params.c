/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_params.c -- unit tests of the parameter table at run time:
 * defaults, setting with units and ranges, cross checks, display.
 */

#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/param.h"

static char err[256];

/*
 * PARAM_Init may run once per process; each test starts from the
 * defaults whether or not check forks.
 */
static void
params_setup(void)
{
	const struct param_desc *pd;
	unsigned n, u;

	if (cache_param == NULL)
		PARAM_Init();
	pd = PARAM_Table(&n);
	for (u = 0; u < n; u++)
		if (!(pd[u].flags & PARAM_F_NCPU))
			ck_assert_msg(PARAM_Set(pd[u].name, pd[u].def, err,
			    sizeof err) == 0, "%s", err);
	err[0] = '\0';
}

/* The value of any parameter as a double, for range checks. */
static double
param_value(const struct param_desc *pd)
{
	const char *p = (const char *)cache_param + pd->offset;

	switch (pd->type) {
	case PARAM_TIMEOUT:
		return (*(const double *)(const void *)p);
	case PARAM_BYTES:
		return ((double)*(const uint64_t *)(const void *)p);
	case PARAM_UINT:
	case PARAM_BOOL:
		return (*(const unsigned *)(const void *)p);
	case PARAM_STRING:
		/* Strings compare by length here; the text is checked too. */
		return ((double)strlen(
		    ((const struct param_string *)(const void *)p)->s));
	default:
		ck_abort_msg("bad type");
		return (0);
	}
}

START_TEST(test_set_each_type)
{

	ck_assert_int_eq(PARAM_Set("timeout_idle", "10s", err, sizeof err), 0);
	ck_assert(cache_param->timeout_idle == 10);
	ck_assert_int_eq(PARAM_Set("timeout_idle", "1.5m", err, sizeof err),
	    0);
	ck_assert(cache_param->timeout_idle == 90);
	ck_assert_int_eq(PARAM_Set("timeout_linger", "250ms", err,
	    sizeof err), 0);
	ck_assert(cache_param->timeout_linger == 0.25);
	ck_assert_int_eq(PARAM_Set("workspace_client", "128k", err,
	    sizeof err), 0);
	ck_assert_uint_eq(cache_param->workspace_client, 131072);
	ck_assert_int_eq(PARAM_Set("workspace_session", "0.75k", err,
	    sizeof err), 0);
	ck_assert_uint_eq(cache_param->workspace_session, 768);
	ck_assert_int_eq(PARAM_Set("thread_pool_max", "600", err, sizeof err),
	    0);
	ck_assert_uint_eq(cache_param->thread_pool_max, 600);
	ck_assert_int_eq(PARAM_Set("auto_restart", "off", err, sizeof err), 0);
	ck_assert_uint_eq(cache_param->auto_restart, 0);
	ck_assert_int_eq(PARAM_Set("auto_restart", "on", err, sizeof err), 0);
	ck_assert_uint_eq(cache_param->auto_restart, 1);
}
END_TEST

START_TEST(test_set_unknown)
{

	ck_assert_int_eq(PARAM_Set("no_such_param", "1", err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "no_such_param"));
	ck_assert_int_eq(PARAM_Set("", "1", err, sizeof err), -1);
	ck_assert_int_eq(PARAM_Set("Timeout_Idle", "1", err, sizeof err), -1);
}
END_TEST

START_TEST(test_set_below_min)
{

	ck_assert_int_eq(PARAM_Set("thread_pool_min", "4", err, sizeof err),
	    -1);
	ck_assert_ptr_nonnull(strstr(err, "thread_pool_min"));
	ck_assert_ptr_nonnull(strstr(err, "minimum"));
	ck_assert_uint_eq(cache_param->thread_pool_min, 100);
	ck_assert_int_eq(PARAM_Set("thread_pool_min", "5", err, sizeof err),
	    0);
	ck_assert_uint_eq(cache_param->thread_pool_min, 5);
	/* Units are compared as values: 8k is below 9k, 9216b is not. */
	ck_assert_int_eq(PARAM_Set("workspace_client", "8k", err, sizeof err),
	    -1);
	ck_assert_int_eq(PARAM_Set("workspace_client", "9216b", err,
	    sizeof err), 0);
	ck_assert_int_eq(PARAM_Set("thread_pool_fail_delay", "5ms", err,
	    sizeof err), -1);
	ck_assert(cache_param->thread_pool_fail_delay == 0.2);
}
END_TEST

START_TEST(test_set_above_max)
{

	ck_assert_int_eq(PARAM_Set("thread_pools", "65", err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "thread_pools"));
	ck_assert_ptr_nonnull(strstr(err, "maximum"));
	ck_assert_int_eq(PARAM_Set("thread_pools", "64", err, sizeof err), 0);
	ck_assert_uint_eq(cache_param->thread_pools, 64);
	ck_assert_int_eq(PARAM_Set("workspace_thread", "9k", err, sizeof err),
	    -1);
	ck_assert_uint_eq(cache_param->workspace_thread, 2048);
	ck_assert_int_eq(PARAM_Set("http_max_hdr", "65536", err, sizeof err),
	    -1);
}
END_TEST

START_TEST(test_set_bad_value)
{
	static const struct {
		const char	*name;
		const char	*value;
	} t[] = {
		{ "timeout_idle", "5 parsecs" }, { "timeout_idle", "5x" },
		{ "timeout_idle", "" }, { "timeout_idle", "-5" },
		{ "workspace_client", "64q" }, { "workspace_client", "1.5b" },
		{ "workspace_client", "lots" }, { "thread_pool_max", "1k" },
		{ "thread_pool_max", "1.5" }, { "auto_restart", "maybe" },
	};
	unsigned u;

	for (u = 0; u < ARRAY_SIZE(t); u++) {
		ck_assert_msg(PARAM_Set(t[u].name, t[u].value, err,
		    sizeof err) == -1, "%s=%s accepted", t[u].name,
		    t[u].value);
		ck_assert_ptr_nonnull(strstr(err, t[u].name));
	}
	ck_assert(cache_param->timeout_idle == 5);
	ck_assert_uint_eq(cache_param->workspace_client, 96 * 1024);
}
END_TEST

/* Every default, min and max parses; the default lies in the range. */
START_TEST(test_defaults_in_range)
{
	const struct param_desc *pd;
	double v, lim;
	unsigned n, u;

	pd = PARAM_Table(&n);
	ck_assert_uint_gt(n, 30);
	for (u = 0; u < n; u++) {
		ck_assert_ptr_eq(PARAM_Lookup(pd[u].name), &pd[u]);
		ck_assert_msg(pd[u].def != NULL && pd[u].doc != NULL &&
		    pd[u].units != NULL, "%s", pd[u].name);
		ck_assert_msg(PARAM_Set(pd[u].name, pd[u].def, err,
		    sizeof err) == 0, "%s default: %s", pd[u].name, err);
		v = param_value(&pd[u]);
		if (pd[u].min != NULL) {
			ck_assert_msg(PARAM_Set(pd[u].name, pd[u].min, err,
			    sizeof err) == 0, "%s min: %s", pd[u].name, err);
			lim = param_value(&pd[u]);
			ck_assert_msg(v >= lim, "%s: default below min",
			    pd[u].name);
		}
		if (pd[u].max != NULL) {
			ck_assert_msg(PARAM_Set(pd[u].name, pd[u].max, err,
			    sizeof err) == 0, "%s max: %s", pd[u].name, err);
			lim = param_value(&pd[u]);
			ck_assert_msg(v <= lim, "%s: default above max",
			    pd[u].name);
		}
		ck_assert_int_eq(PARAM_Set(pd[u].name, pd[u].def, err,
		    sizeof err), 0);
	}
	ck_assert_ptr_null(PARAM_Lookup("nope"));
}
END_TEST

START_TEST(test_defaults_after_init)
{

	/* thread_pools defaults to the CPU count, within 1..64. */
	ck_assert_uint_ge(cache_param->thread_pools, 1);
	ck_assert_uint_le(cache_param->thread_pools, 64);
	ck_assert_uint_eq(cache_param->magic, PARAMS_MAGIC);
	ck_assert_uint_eq(cache_param->workspace_client, 96 * 1024);
	ck_assert_uint_eq(cache_param->workspace_session, 768);
	ck_assert(cache_param->connect_timeout == 3.5);
	ck_assert_uint_eq(cache_param->auto_restart, 1);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), 0);
}
END_TEST

START_TEST(test_check)
{

	ck_assert_int_eq(PARAM_Set("thread_pool_max", "500", err, sizeof err),
	    0);
	ck_assert_int_eq(PARAM_Set("thread_pool_min", "800", err, sizeof err),
	    0);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), -1);
	ck_assert_str_eq(err,
	    "thread_pool_min: 800 is above thread_pool_max (500)");
	ck_assert_int_eq(PARAM_Set("thread_pool_min", "500", err, sizeof err),
	    0);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), 0);

	/*
	 * The head buffers must fit in their workspaces with room to
	 * spare; how much room is PARAM_Check's business, so test far
	 * from the edge on both sides.
	 */
	ck_assert_int_eq(PARAM_Set("workspace_client", "1m", err, sizeof err),
	    0);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), 0);
	ck_assert_int_eq(PARAM_Set("http_req_size", "1m", err, sizeof err),
	    0);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "http_req_size"));
	ck_assert_ptr_nonnull(strstr(err, "workspace_client"));
	ck_assert_int_eq(PARAM_Set("http_req_size", "32k", err, sizeof err),
	    0);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), 0);

	ck_assert_int_eq(PARAM_Set("workspace_backend", "1m", err,
	    sizeof err), 0);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), 0);
	ck_assert_int_eq(PARAM_Set("http_resp_size", "1m", err, sizeof err),
	    0);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "http_resp_size"));
	ck_assert_ptr_nonnull(strstr(err, "workspace_backend"));
}
END_TEST

/*
 * Issue 11: a cache fetch copies the request into workspace_backend, so
 * the largest legal request must fit there beside the response buffer:
 * a combination where it cannot is refused at start, naming the knobs.
 */
START_TEST(test_check_backend_holds_request)
{

	ck_assert_int_eq(PARAM_Check(err, sizeof err), 0);
	ck_assert_int_eq(PARAM_Set("workspace_client", "1m", err, sizeof err),
	    0);
	ck_assert_int_eq(PARAM_Set("http_req_size", "64k", err, sizeof err),
	    0);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "raise workspace_backend"));
	ck_assert_ptr_nonnull(strstr(err, "http_req_size"));
	ck_assert_int_eq(PARAM_Set("workspace_backend", "160k", err,
	    sizeof err), 0);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), 0);
	ck_assert_int_eq(PARAM_Set("http_req_size", "32k", err, sizeof err),
	    0);
	ck_assert_int_eq(PARAM_Set("workspace_backend", "80k", err,
	    sizeof err), 0);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "raise workspace_backend"));
}
END_TEST

/* Format then parse back gives the same value and the same text. */
static void
check_format_round_trip(const struct param_desc *pd)
{
	char buf[PARAM_STRING_MAX], buf2[PARAM_STRING_MAX];
	double v;

	v = param_value(pd);
	PARAM_Format(pd, buf, sizeof buf);
	ck_assert_msg(buf[0] != '\0', "%s: empty", pd->name);
	ck_assert_msg(PARAM_Set(pd->name, buf, err, sizeof err) == 0,
	    "%s: \"%s\" does not parse back: %s", pd->name, buf, err);
	ck_assert_msg(param_value(pd) == v, "%s: \"%s\" parses to %g not %g",
	    pd->name, buf, param_value(pd), v);
	PARAM_Format(pd, buf2, sizeof buf2);
	ck_assert_str_eq(buf, buf2);
}

START_TEST(test_format)
{
	static const struct {
		const char	*name;
		const char	*value;
		const char	*want;
	} t[] = {
		{ "timeout_idle", "5", "5" },
		{ "timeout_linger", "50ms", "0.05" },
		{ "connect_timeout", "3.5", "3.5" },
		{ "send_timeout", "2w", "1209600" },
		{ "send_timeout", "4000000", "4000000" },
		{ "send_timeout", "0.125", "0.125" },
		{ "workspace_client", "96k", "96k" },
		{ "workspace_session", "0.75k", "768b" },
		{ "workspace_client", "1.5m", "1.5M" },
		{ "workspace_client", "12345.25k", "12345.25k" },
		{ "workspace_client", "10000", "10000b" },
		{ "thread_pool_max", "5000", "5000" },
		{ "auto_restart", "yes", "on" },
		{ "auto_restart", "0", "off" },
		{ "vsl_mask", "-Debug,+Hash", "-Debug,+Hash" },
	};
	const struct param_desc *pd;
	char buf[64];
	unsigned n, u;

	for (u = 0; u < ARRAY_SIZE(t); u++) {
		pd = PARAM_Lookup(t[u].name);
		ck_assert_ptr_nonnull(pd);
		ck_assert_msg(PARAM_Set(t[u].name, t[u].value, err,
		    sizeof err) == 0, "%s", err);
		PARAM_Format(pd, buf, sizeof buf);
		ck_assert_msg(strcmp(buf, t[u].want) == 0,
		    "%s=%s shows as \"%s\", want \"%s\"", t[u].name,
		    t[u].value, buf, t[u].want);
		check_format_round_trip(pd);
	}
	pd = PARAM_Table(&n);
	for (u = 0; u < n; u++)
		check_format_round_trip(&pd[u]);
}
END_TEST

/* A log batch larger than a segment of the log crashed the child. */
START_TEST(test_vsl_buffer_fits_the_log)
{

	ck_assert_int_eq(PARAM_Set("vsl_space", "1M", err, sizeof err), 0);
	ck_assert_int_eq(PARAM_Set("workspace_client", "4M", err, sizeof err),
	    0);
	ck_assert_int_eq(PARAM_Set("workspace_backend", "4M", err,
	    sizeof err), 0);
	ck_assert_int_eq(PARAM_Set("vsl_buffer", "512k", err, sizeof err), 0);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "vsl_buffer"));
	ck_assert_ptr_nonnull(strstr(err, "vsl_space"));
	ck_assert_int_eq(PARAM_Set("vsl_buffer", "64k", err, sizeof err), 0);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), 0);
}
END_TEST

static Suite *
params_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("params");
	tc = tcase_create("params");
	tcase_add_checked_fixture(tc, params_setup, NULL);
	tcase_add_test(tc, test_set_each_type);
	tcase_add_test(tc, test_set_unknown);
	tcase_add_test(tc, test_set_below_min);
	tcase_add_test(tc, test_set_above_max);
	tcase_add_test(tc, test_set_bad_value);
	tcase_add_test(tc, test_defaults_in_range);
	tcase_add_test(tc, test_defaults_after_init);
	tcase_add_test(tc, test_check);
	tcase_add_test(tc, test_check_backend_holds_request);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_vsl_buffer_fits_the_log);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(params_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}
