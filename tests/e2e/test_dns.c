/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_dns.c -- backend names that follow DNS (issue 15).  The child
 * resolves through VENEER_HOSTS_FILE, a hosts(5) file the test rewrites
 * mid-test (atomically, by rename): traffic follows a changed answer
 * without a reload; a name that stops resolving makes its backend sick
 * (503, an Error record says why) and it heals when the name is back;
 * with several addresses a refused first one is skipped and BackendOpen
 * names the one used; a cold VCL's names wait.  Origins listen on
 * 127.0.0.1 and 127.0.0.2 with the same port.  backend_dns_ttl is 0.1 s;
 * every wait polls a counter, the log or backend.list with a deadline.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/harness.h"
#include "e2e/cli_lib.h"

/* Replace DIR/hosts with text in one step (the child may read it). */
static void
hosts_write(struct vnd *v, const char *text)
{
	char *tmp, *path;

	ck_assert_int_gt(asprintf(&tmp, "%s/hosts.tmp", VND_Dir(v)), 0);
	ck_assert_int_gt(asprintf(&path, "%s/hosts", VND_Dir(v)), 0);
	write_text(tmp, text);
	ck_assert_int_eq(rename(tmp, path), 0);
	free(tmp);
	free(path);
}

/*
 * veneerd with the CLI, backend b at name:port resolved through the
 * hosts file holding hosts, re-resolved every 0.1 s.
 */
static struct vnd *
dns_start(const char *name, int port, const char *hosts)
{
	struct vnd *v;
	char *vcl, *path;

	v = VND_New();
	hosts_write(v, hosts);
	ck_assert_int_gt(asprintf(&path, "%s/hosts", VND_Dir(v)), 0);
	ck_assert_int_eq(setenv("VENEER_HOSTS_FILE", path, 1), 0);
	free(path);
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\nbackend b {\n"
	    "\t.host = \"%s\";\n\t.port = \"%d\";\n}\n", name, port), 0);
	VND_VclFile(v, "dns.vcl", vcl);
	free(vcl);
	VND_Param(v, "backend_dns_ttl", "0.1");
	cli_args(v, 1);
	VND_Start(v);
	/* Inherited by the child at start; not for later tests. */
	ck_assert_int_eq(unsetenv("VENEER_HOSTS_FILE"), 0);
	return (v);
}

static unsigned
fetch_status(struct vnd *v, const char *url)
{
	struct client *cl;
	struct hx_msg *r;
	unsigned s;

	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", url, NULL, HX_T_RESP);
	s = r->status;
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	return (s);
}

/*
 * The log's records of tag so far, as veneerlog -g raw prints them, in
 * buf; 0, or -1 when VENEER_BUILDDIR (where veneerlog is) is not set.
 */
static int
vsl_read(struct vnd *v, const char *tag, char *buf, size_t len)
{
	const char *dir;
	char cmd[4096];
	size_t n;
	FILE *f;

	dir = getenv("VENEER_BUILDDIR");
	if (dir == NULL)
		return (-1);
	(void)snprintf(cmd, sizeof cmd, "timeout 20 %s/veneerlog -n %s -d "
	    "-g raw -i %s", dir, VND_Workdir(v), tag);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	ck_assert_int_eq(pclose(f), 0);
	return (0);
}

/* The answer changes from 127.0.0.1 to 127.0.0.2: traffic follows. */
START_TEST(traffic_follows)
{
	struct origin *a, *b;
	struct vnd *v;
	char want[64];
	int fd, port;

	a = ORIGIN_New(NULL, NULL);
	port = ORIGIN_Port(a);
	b = ORIGIN_NewAt(NULL, NULL, "127.0.0.2", port);
	v = dns_start("app.test", port, "# the test's\n127.0.0.1 app.test\n");
	fd = cli_login(v);
	ck_assert_uint_eq(fetch_status(v, "/one"), 200);
	ck_assert_ptr_nonnull(ORIGIN_FindReq(a, "/one"));
	(void)snprintf(want, sizeof want, "\"addresses\": [\"127.0.0.1:%d\"]",
	    port);
	cli_wait(fd, "backend.list -j", want);

	hosts_write(v, "127.0.0.2 other app.test\n");
	(void)VND_WaitCounter(v, "backend_dns_changes", ">=", 1, HX_T_SLOW);
	/* The idle connection to 127.0.0.1 went with the address. */
	(void)VND_WaitCounter(v, "backend_dns_closed", ">=", 1, HX_T_SLOW);
	ck_assert_uint_eq(fetch_status(v, "/two"), 200);
	ck_assert_ptr_nonnull(ORIGIN_FindReq(b, "/two"));
	ck_assert_ptr_null(ORIGIN_FindReq(a, "/two"));
	ck_assert_uint_eq(ORIGIN_NReq(a), 1);
	(void)snprintf(want, sizeof want, "\"addresses\": [\"127.0.0.2:%d\"]",
	    port);
	cli_wait(fd, "backend.list -j", want);
	ck_assert_uint_ge(VND_Counter(v, "backend_dns_lookups"), 2);
	(void)close(fd);
	VND_Finish(&v, &a);
	ORIGIN_Free(&b);
}
END_TEST

/*
 * A name unresolvable at load: the VCL loads, the backend is sick and
 * fetches get 503; it heals when the name resolves, and sickens again
 * when it stops.  A name under .invalid never goes to DNS.
 */
START_TEST(unresolvable_is_sick)
{
	struct origin *o;
	struct vnd *v;
	char line[64], buf[8192];
	int fd;

	o = ORIGIN_New(NULL, NULL);
	v = dns_start("app.invalid", ORIGIN_Port(o), "# nothing yet\n");
	fd = cli_login(v);
	cli_wait(fd, "backend.list b", "sick");
	ck_assert_uint_eq(fetch_status(v, "/down"), 503);
	ck_assert_uint_ge(VND_Counter(v, "backend_dns_fail"), 1);
	cli_wait(fd, "backend.list -j", "\"addresses\": []");

	(void)snprintf(line, sizeof line, "127.0.0.1 app.invalid\n");
	hosts_write(v, line);
	cli_wait(fd, "backend.list b", "healthy");
	ck_assert_uint_eq(fetch_status(v, "/up"), 200);
	ck_assert_ptr_nonnull(ORIGIN_FindReq(o, "/up"));

	hosts_write(v, "\n");
	cli_wait(fd, "backend.list b", "sick");
	ck_assert_uint_eq(fetch_status(v, "/down-again"), 503);
	ck_assert_ptr_null(ORIGIN_FindReq(o, "/down-again"));
	/* Each change of state is logged, with the reason. */
	if (vsl_read(v, "Error", buf, sizeof buf) == 0) {
		(void)snprintf(line, sizeof line, "app.invalid:%d",
		    ORIGIN_Port(o));
		ck_assert_msg(strstr(buf, "backend b: no address for ") !=
		    NULL && strstr(buf, line) != NULL && strstr(buf,
		    "(a name under .invalid, never looked up), sick") != NULL,
		    "%s", buf);
		ck_assert_msg(strstr(buf, "resolves again, to 127.0.0.1") !=
		    NULL, "%s", buf);
		ck_assert_msg(strstr(buf, "no longer resolves") != NULL, "%s",
		    buf);
	}
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* Two addresses, the first refusing connections: the second serves. */
START_TEST(first_address_refuses)
{
	struct origin *o;
	struct vnd *v;
	char want[96];
	int fd, port;

	o = ORIGIN_New(NULL, NULL);
	port = ORIGIN_Port(o);
	/* Nothing listens on 127.0.0.3 at the origin's port. */
	v = dns_start("multi.test", port, "127.0.0.3 multi.test\n"
	    "127.0.0.1 multi.test\n");
	fd = cli_login(v);
	(void)snprintf(want, sizeof want, "\"addresses\": [\"127.0.0.3:%d\", "
	    "\"127.0.0.1:%d\"]", port, port);
	cli_wait(fd, "backend.list -j", want);
	ck_assert_uint_eq(fetch_status(v, "/a"), 200);
	ck_assert_ptr_nonnull(ORIGIN_FindReq(o, "/a"));
	ck_assert_uint_eq(fetch_status(v, "/b"), 200);
	ck_assert_ptr_nonnull(ORIGIN_FindReq(o, "/b"));
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * A cold VCL's names are not looked up again: its backend keeps the old
 * address while the warm VCL's follows, and catches up once warm.
 */
START_TEST(cold_vcl_not_resolved)
{
	struct origin *o;
	struct vnd *v;
	char want[96], *text, *path, *line;
	int fd, port;

	o = ORIGIN_New(NULL, NULL);
	port = ORIGIN_Port(o);
	v = dns_start("app.test", port, "127.0.0.1 app.test\n");
	fd = cli_login(v);
	ck_assert_int_gt(asprintf(&text, "vcl 4.1;\nbackend c { .host = "
	    "\"app.test\"; .port = \"%d\"; }\n", port), 0);
	ck_assert_int_gt(asprintf(&path, "%s/cold.vcl", VND_Dir(v)), 0);
	write_text(path, text);
	ck_assert_int_gt(asprintf(&line, "vcl.load c %s cold", path), 0);
	cli_expect(fd, line, 200, NULL);
	free(text);
	free(path);
	free(line);

	hosts_write(v, "127.0.0.2 app.test\n");
	(void)snprintf(want, sizeof want, "\"addresses\": [\"127.0.0.2:%d\"]",
	    port);
	cli_wait(fd, "backend.list -j boot.*", want);
	/* Several rounds of the warm VCL's lookups later: still the old. */
	(void)VND_WaitCounter(v, "backend_dns_lookups", ">=", 8, HX_T_SLOW);
	(void)snprintf(want, sizeof want, "\"addresses\": [\"127.0.0.1:%d\"]",
	    port);
	cli_wait(fd, "backend.list -j c.*", want);
	cli_expect(fd, "vcl.state c warm", 200, NULL);
	(void)snprintf(want, sizeof want, "\"addresses\": [\"127.0.0.2:%d\"]",
	    port);
	cli_wait(fd, "backend.list -j c.*", want);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* BackendOpen names the address a fetch connected to. */
START_TEST(backend_open_names_address)
{
	struct origin *o;
	struct vnd *v;
	char buf[8192], want[96];
	int port;

	if (getenv("VENEER_BUILDDIR") == NULL)
		HX_Skip("VENEER_BUILDDIR is not set");
	o = ORIGIN_New(NULL, NULL);
	port = ORIGIN_Port(o);
	v = dns_start("multi.test", port, "127.0.0.3 multi.test\n"
	    "127.0.0.1 multi.test\n");
	ck_assert_uint_eq(fetch_status(v, "/a"), 200);
	ck_assert_int_eq(vsl_read(v, "BackendOpen", buf, sizeof buf), 0);
	(void)snprintf(want, sizeof want, " b 127.0.0.1 %d 127.0.0.1 ", port);
	ck_assert_msg(strstr(buf, want) != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "127.0.0.3") == NULL, "%s", buf);
	VND_Finish(&v, &o);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("dns");
	TCase *tc = tcase_create("dns");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, traffic_follows);
	tcase_add_test(tc, unresolvable_is_sick);
	tcase_add_test(tc, first_address_refuses);
	tcase_add_test(tc, cold_vcl_not_resolved);
	tcase_add_test(tc, backend_open_names_address);
	suite_add_tcase(s, tc);
	return (HX_Run(s));
}
