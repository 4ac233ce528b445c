/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vrt_var.c -- unit tests of the variable accessors
 * (src/cache/vrt_var.c, vrt.c) against hand-made sessions, requests and
 * fetches: client.ip and its string forms, client.identity's default,
 * req.ttl / req.grace unset until VCL sets them and reset for the next
 * request, beresp.ttl counted from now, server.ip from the socket.
 */

#include "config.h"

#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "cache/fetch.h"
#include "cache/req.h"
#include "cache/session.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

static uint64_t space[8192 / 8];
static uint64_t logbuf[4096 / 8];
static struct vsl_log vsl[1];
static struct sess sp[1];
static struct req req[1];
static struct busyobj bo[1];
static struct vrt_ctx ctx[1];

static void
setup(void)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&sp->remote;

	memset(sp, 0, sizeof sp);
	memset(req, 0, sizeof req);
	memset(bo, 0, sizeof bo);
	sp->magic = SESS_MAGIC;
	sp->fd = -1;
	sin->sin_family = AF_INET;
	sin->sin_port = htons(5555);
	ck_assert_int_eq(inet_pton(AF_INET, "192.0.2.9", &sin->sin_addr), 1);
	sp->remote_len = sizeof *sin;
	req->magic = REQ_MAGIC;
	req->sp = sp;
	req->vxid = 1001;
	WS_Init(req->ws, "req", space, sizeof space);
	bo->magic = BUSYOBJ_MAGIC;
	memset(ctx, 0, sizeof ctx);
	ctx->magic = VRT_CTX_MAGIC;
	ctx->method = VCL_MET_RECV;
	ctx->ws = req->ws;
	ctx->sp = sp;
	ctx->req = req;
	ctx->now = 1e9;
	/* The accessors log (TTL, VCL_Error) as in the daemon. */
	VSL_Setup(vsl, logbuf, sizeof logbuf);
	ctx->vsl = vsl;
}

START_TEST(test_client_ip)
{
	VCL_IP ip;

	ip = VRT_r_client_ip(ctx);
	ck_assert_ptr_nonnull(ip);
	ck_assert_str_eq(VRT_IP_string(ctx, ip), "192.0.2.9");
	ck_assert_uint_eq(ip->port, 5555);
	/* Made once per request. */
	ck_assert_ptr_eq(VRT_r_client_ip(ctx), ip);
	ck_assert_str_eq(VRT_IP_string(ctx, VRT_r_remote_ip(ctx)),
	    "192.0.2.9");
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_client_identity)
{
	static const char *p[1] = { "user-42" };
	struct strands s = { 1, p };

	/* client.identity defaults to client.ip ... */
	ck_assert_str_eq(VRT_r_client_identity(ctx), "192.0.2.9");
	/* ... and can be set ... */
	VRT_l_client_identity(ctx, &s);
	ck_assert_str_eq(VRT_r_client_identity(ctx), "user-42");
	/* ... for this request only. */
	req->vxid++;
	ck_assert_str_eq(VRT_r_client_identity(ctx), "192.0.2.9");
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_req_ttl_grace)
{

	/* Unset: -1, which caps nothing. */
	ck_assert_double_eq(VRT_r_req_ttl(ctx), -1);
	ck_assert_double_eq(VRT_r_req_grace(ctx), -1);
	VRT_l_req_ttl(ctx, 10);
	VRT_l_req_grace(ctx, 0);
	ck_assert_double_eq(VRT_r_req_ttl(ctx), 10);
	ck_assert_double_eq(VRT_r_req_grace(ctx), 0);
	/* The next request on the same struct starts unset. */
	req->vxid++;
	ck_assert_double_eq(VRT_r_req_ttl(ctx), -1);
	ck_assert_double_eq(VRT_r_req_grace(ctx), -1);
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_req_restarts)
{

	req->restarts = 2;
	ck_assert_int_eq(VRT_r_req_restarts(ctx), 2);
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_beresp_ttl)
{

	ctx->method = VCL_MET_BACKEND_RESPONSE;
	ctx->req = NULL;
	ctx->bo = bo;
	bo->t_origin = 1e9 - 30;	/* the response is 30 s old */
	bo->ttl = 120;
	ck_assert_double_eq(VRT_r_beresp_ttl(ctx), 90);
	ck_assert_double_eq(VRT_r_beresp_age(ctx), 30);
	VRT_l_beresp_ttl(ctx, 60);
	ck_assert_double_eq(VRT_r_beresp_ttl(ctx), 60);
	ck_assert_double_eq(bo->ttl, 90);
	ck_assert(!ctx->failed);
	/* beresp is not there in vcl_backend_fetch. */
	ctx->method = VCL_MET_BACKEND_FETCH;
	(void)VRT_r_beresp_ttl(ctx);
	ck_assert(ctx->failed);
}
END_TEST

START_TEST(test_bereq_timeouts)
{

	ctx->method = VCL_MET_BACKEND_FETCH;
	ctx->req = NULL;
	ctx->bo = bo;
	VRT_l_bereq_connect_timeout(ctx, 1.5);
	VRT_l_bereq_first_byte_timeout(ctx, 2.5);
	VRT_l_bereq_between_bytes_timeout(ctx, 3.5);
	ck_assert_double_eq(VRT_r_bereq_connect_timeout(ctx), 1.5);
	ck_assert_double_eq(bo->first_byte_timeout, 2.5);
	ck_assert_double_eq(bo->between_bytes_timeout, 3.5);
	bo->retries = 3;
	ck_assert_int_eq(VRT_r_bereq_retries(ctx), 3);
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_server_ip)
{
	struct sockaddr_in sin;
	socklen_t l = sizeof sin;
	VCL_IP ip;
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	ck_assert_int_ge(fd, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sin, &l), 0);
	sp->fd = fd;
	ip = VRT_r_server_ip(ctx);
	ck_assert_ptr_nonnull(ip);
	ck_assert_str_eq(VRT_IP_string(ctx, ip), "127.0.0.1");
	ck_assert_uint_eq(ip->port, ntohs(sin.sin_port));
	ck_assert_str_eq(VRT_IP_string(ctx, VRT_r_local_ip(ctx)),
	    "127.0.0.1");
	(void)close(fd);
	ck_assert(!ctx->failed);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("vrt_var");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_client_ip);
	tcase_add_test(tc, test_client_identity);
	tcase_add_test(tc, test_req_ttl_grace);
	tcase_add_test(tc, test_req_restarts);
	tcase_add_test(tc, test_beresp_ttl);
	tcase_add_test(tc, test_bereq_timeouts);
	tcase_add_test(tc, test_server_ip);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? 0 : 1);
}
