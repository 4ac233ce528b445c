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

static char err[512];

/*
 * PARAM_Init may run once per process; each test starts from the
 * defaults whether or not check forks.  PARAM_Reset, not PARAM_Set: a
 * bit set's default is the whole set, not bits to add.
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
			ck_assert_msg(PARAM_Reset(pd[u].name, err,
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
	case PARAM_DOUBLE:
		return (*(const double *)(const void *)p);
	case PARAM_BITS:
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
	/* As in Varnish, a pool may be as small as 5 threads at most. */
	ck_assert_int_eq(PARAM_Set("thread_pool_max", "4", err, sizeof err),
	    -1);
	ck_assert_int_eq(PARAM_Set("thread_pool_max", "5", err, sizeof err),
	    0);
	ck_assert_int_eq(PARAM_Check(err, sizeof err), 0);
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
	ck_assert_uint_eq(cache_param->workspace_client, 128 * 1024);
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
	ck_assert_uint_eq(cache_param->workspace_client, 128 * 1024);
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
	/* A string may be empty (vmod_path); nothing else shows so. */
	ck_assert_msg(buf[0] != '\0' || pd->type == PARAM_STRING,
	    "%s: empty", pd->name);
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

/* The value of a bit set as shown, for comparing. */
static const char *
shown(const char *name)
{
	static char buf[PARAM_STRING_MAX];

	PARAM_Format(PARAM_Lookup(name), buf, sizeof buf);
	return (buf);
}

START_TEST(test_bits)
{
	static const struct {
		const char	*name;
		const char	*value;
		const char	*want;	/* NULL: refused, value unchanged */
	} t[] = {
		{ "debug", "+vtc_mode", "+vtc_mode" },
		/* Applied to the current bits; shown in bit order. */
		{ "debug", "+workspace", "+workspace,+vtc_mode" },
		{ "debug", "+req_state,-workspace", "+req_state,+vtc_mode" },
		{ "debug", "", "+req_state,+vtc_mode" },
		{ "debug", "-lck", "+req_state,+vtc_mode" },
		{ "debug", "none", "none" },
		{ "debug", "+SyncVSL, +lck", "+syncvsl,+lck" },
		{ "debug", "none,+witness", "+witness" },
		{ "debug", "default", "none" },
		{ "debug", "+witness,+nope", NULL },
		{ "debug", "witness", NULL },
		{ "debug", "+", NULL },
		{ "debug", "+http2", NULL },
		{ "feature", "+http2", "+http2,+validate_headers" },
		{ "feature", "-validate_headers", "+http2" },
		{ "feature", "default", "+validate_headers" },
		{ "feature", "none", "none" },
		{ "experimental", "+drop_pools", "+drop_pools" },
		{ "experimental", "-drop_pools", "none" },
		{ "experimental", "+vtc_mode", NULL },
	};
	char before[PARAM_STRING_MAX];
	unsigned u;

	ck_assert_str_eq(shown("debug"), "none");
	ck_assert_str_eq(shown("feature"), "+validate_headers");
	ck_assert_str_eq(shown("experimental"), "none");
	for (u = 0; u < ARRAY_SIZE(t); u++) {
		(void)snprintf(before, sizeof before, "%s", shown(t[u].name));
		err[0] = '\0';
		if (t[u].want == NULL) {
			ck_assert_msg(PARAM_Set(t[u].name, t[u].value, err,
			    sizeof err) == -1, "%s=%s accepted", t[u].name,
			    t[u].value);
			ck_assert_ptr_nonnull(strstr(err, t[u].name));
			ck_assert_str_eq(shown(t[u].name), before);
			continue;
		}
		ck_assert_msg(PARAM_Set(t[u].name, t[u].value, err,
		    sizeof err) == 0, "%s=%s: %s", t[u].name, t[u].value, err);
		ck_assert_msg(!strcmp(shown(t[u].name), t[u].want),
		    "%s=%s shows as \"%s\", want \"%s\"", t[u].name,
		    t[u].value, shown(t[u].name), t[u].want);
	}
}
END_TEST

/* An unknown bit is refused with the names that exist. */
START_TEST(test_bits_unknown_lists_names)
{

	ck_assert_int_eq(PARAM_Set("debug", "+vtc_mod", err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "\"vtc_mod\""));
	ck_assert_ptr_nonnull(strstr(err, "req_state"));
	ck_assert_ptr_nonnull(strstr(err, "vtc_mode"));
	ck_assert_ptr_nonnull(strstr(err, "lck"));
	ck_assert_int_eq(PARAM_Set("feature", "http2", err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "+"));
}
END_TEST

/* The child's cheap tests, and a reset or restore is the whole set. */
START_TEST(test_bits_accessors)
{

	ck_assert(!PARAM_HasDebug(PARAM_DEBUG_VTC_MODE));
	ck_assert(PARAM_HasFeature(PARAM_FEATURE_VALIDATE_HEADERS));
	ck_assert(!PARAM_HasFeature(PARAM_FEATURE_HTTP2));
	ck_assert_int_eq(PARAM_Set("debug", "+vtc_mode,+lck", err,
	    sizeof err), 0);
	ck_assert_int_eq(PARAM_Set("feature", "+http2", err, sizeof err), 0);
	ck_assert_int_eq(PARAM_Set("experimental", "+drop_pools", err,
	    sizeof err), 0);
	ck_assert(PARAM_HasDebug(PARAM_DEBUG_VTC_MODE));
	ck_assert(PARAM_HasDebug(PARAM_DEBUG_LCK));
	ck_assert(!PARAM_HasDebug(PARAM_DEBUG_SYNCVSL));
	ck_assert(PARAM_HasFeature(PARAM_FEATURE_HTTP2));
	ck_assert(PARAM_HasExperimental(PARAM_EXPERIMENTAL_DROP_POOLS));

	ck_assert_int_eq(PARAM_Reset("feature", err, sizeof err), 0);
	ck_assert_str_eq(shown("feature"), "+validate_headers");
	ck_assert_int_eq(PARAM_Restore("debug", "+syncvsl", err, sizeof err),
	    0);
	ck_assert_str_eq(shown("debug"), "+syncvsl");
	ck_assert_int_eq(PARAM_Restore("debug", "none", err, sizeof err), 0);
	ck_assert(!PARAM_HasDebug(PARAM_DEBUG_SYNCVSL));
}
END_TEST

/* Varnish 7.1's own parameter names, as its scripts and tests set them. */
START_TEST(test_varnish_names)
{
	static const char * const names[] = {
		"accept_filter", "acceptor_sleep_decay",
		"acceptor_sleep_incr", "acceptor_sleep_max", "auto_restart",
		"ban_cutoff", "ban_dups", "ban_lurker_age", "ban_lurker_batch",
		"ban_lurker_holdoff", "ban_lurker_sleep",
		"backend_idle_timeout", "backend_local_error_holddown",
		"backend_remote_error_holddown", "between_bytes_timeout",
		"cc_command", "cc_warnings", "cli_limit", "cli_timeout",
		"clock_skew", "clock_step", "connect_timeout",
		"critbit_cooloff", "debug", "default_grace", "default_keep",
		"default_ttl", "experimental", "feature", "fetch_chunksize",
		"fetch_maxchunksize", "first_byte_timeout", "gzip_buffer",
		"gzip_level", "gzip_memlevel", "h2_header_table_size",
		"h2_initial_window_size", "h2_max_concurrent_streams",
		"h2_max_frame_size", "h2_max_header_list_size",
		"h2_rx_window_increment", "h2_rx_window_low_water",
		"h2_rxbuf_storage", "http1_iovs", "http_gzip_support",
		"http_max_hdr", "http_range_support", "http_req_hdr_len",
		"http_req_size", "http_resp_hdr_len", "http_resp_size",
		"idle_send_timeout", "listen_depth", "lru_interval",
		"max_esi_depth", "max_restarts", "max_retries", "max_vcl",
		"max_vcl_handling", "nuke_limit", "pcre2_depth_limit",
		"pcre2_jit_compilation", "pcre2_match_limit", "ping_interval",
		"pipe_sess_max", "pipe_timeout", "pool_req", "pool_sess",
		"pool_vbo", "prefer_ipv6", "rush_exponent", "send_timeout",
		"shortlived", "sigsegv_handler", "syslog_cli_traffic",
		"tcp_fastopen", "tcp_keepalive_intvl", "tcp_keepalive_probes",
		"tcp_keepalive_time", "thread_pool_add_delay",
		"thread_pool_destroy_delay", "thread_pool_fail_delay",
		"thread_pool_max", "thread_pool_min", "thread_pool_reserve",
		"thread_pool_stack", "thread_pool_timeout",
		"thread_pool_watchdog", "thread_pools", "thread_queue_limit",
		"thread_stats_rate", "timeout_idle", "timeout_linger",
		"vary_notice", "vcc_allow_inline_c", "vcc_err_unref",
		"vcc_unsafe_path", "vcl_cooldown", "vcl_path", "vmod_path",
		"vsl_buffer", "vsl_mask", "vsl_reclen", "vsl_space",
		"vsm_free_cooldown", "workspace_backend", "workspace_client",
		"workspace_session", "workspace_thread",
	};
	unsigned u;

	for (u = 0; u < ARRAY_SIZE(names); u++)
		ck_assert_msg(PARAM_Lookup(names[u]) != NULL, "%s missing",
		    names[u]);
}
END_TEST

/* What varnishtest and operators' scripts set, with Varnish's limits. */
START_TEST(test_varnish_rows)
{
	static const struct {
		const char	*name;
		const char	*value;
		const char	*want;	/* NULL: refused */
	} t[] = {
		{ "http_gzip_support", "off", "off" },
		{ "syslog_cli_traffic", "off", "off" },
		{ "h2_initial_window_size", "65535b", "65535b" },
		{ "h2_initial_window_size", "65534b", NULL },
		{ "h2_initial_window_size", "2G", NULL },
		{ "h2_initial_window_size", "1m", "1M" },
		{ "h2_rx_window_low_water", "64k", "64k" },
		{ "gzip_level", "9", "9" },
		{ "gzip_level", "10", NULL },
		{ "max_vcl_handling", "3", NULL },
		{ "rush_exponent", "1", NULL },
		{ "thread_pool_reserve", "10", "10" },
		{ "critbit_cooloff", "59", NULL },
		{ "cli_limit", "1k", "1k" },
		{ "acceptor_sleep_decay", "0.5", "0.5" },
		{ "acceptor_sleep_decay", "1.5", NULL },
		{ "acceptor_sleep_decay", "-0.5", NULL },
		{ "acceptor_sleep_decay", "inf", NULL },
		{ "acceptor_sleep_decay", "0.5s", NULL },
		{ "pool_req", "1,2,3", "1,2,3" },
		{ "pool_req", "1,2", NULL },
		{ "pool_req", "3,2,1", NULL },
		{ "pool_req", "1,2,3,4", NULL },
		{ "pool_sess", "1,x,3", NULL },
		{ "vmod_path", "/usr/lib/vmods", "/usr/lib/vmods" },
	};
	const struct param_desc *pd;
	char buf[PARAM_STRING_MAX];
	unsigned u;

	for (u = 0; u < ARRAY_SIZE(t); u++) {
		pd = PARAM_Lookup(t[u].name);
		ck_assert_msg(pd != NULL, "%s missing", t[u].name);
		if (t[u].want == NULL) {
			ck_assert_msg(PARAM_Set(t[u].name, t[u].value, err,
			    sizeof err) == -1, "%s=%s accepted", t[u].name,
			    t[u].value);
			ck_assert_ptr_nonnull(strstr(err, t[u].name));
			continue;
		}
		ck_assert_msg(PARAM_Set(t[u].name, t[u].value, err,
		    sizeof err) == 0, "%s=%s: %s", t[u].name, t[u].value, err);
		PARAM_Format(pd, buf, sizeof buf);
		ck_assert_msg(!strcmp(buf, t[u].want),
		    "%s=%s shows as \"%s\", want \"%s\"", t[u].name,
		    t[u].value, buf, t[u].want);
	}
	ck_assert_uint_eq(cache_param->http_gzip_support, 0);
	ck_assert_uint_eq(cache_param->h2_initial_window_size, 1048576);
	ck_assert(cache_param->acceptor_sleep_decay == 0.5);
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
	tcase_add_test(tc, test_bits);
	tcase_add_test(tc, test_bits_unknown_lists_names);
	tcase_add_test(tc, test_bits_accessors);
	tcase_add_test(tc, test_varnish_names);
	tcase_add_test(tc, test_varnish_rows);
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
