/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_http1_write.c -- unit tests of the gathering writer: whatever mix
 * of short and long pieces is queued (short runs are copied into one
 * buffer before writev), the peer receives exactly their concatenation,
 * in order, also when the socket takes them a few bytes at a time and
 * when the vector array fills and flushes early.
 */

#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "cache/http1_write.h"
#include "cache/pool.h"
#include "cache/ws.h"

#define MAXOUT		(1024 * 1024)

static struct worker wrk[1];
static uint64_t wspace[16384 / 8];
static int sv[2];

struct sink {
	int		fd;
	int		slow;	/* read in small bites */
	char		*buf;
	size_t		len;
};

static void *
sink_run(void *priv)
{
	struct sink *s = priv;
	ssize_t n;

	for (;;) {
		n = read(s->fd, s->buf + s->len,
		    s->slow ? 7 : MAXOUT - s->len);
		if (n <= 0)
			break;
		s->len += (size_t)n;
		ck_assert_uint_le(s->len, MAXOUT);
	}
	return (NULL);
}

static void
setup(size_t wsz)
{

	INIT_OBJ(wrk, WORKER_MAGIC);
	ck_assert_uint_le(wsz, sizeof wspace);
	WS_Init(wrk->aws, "thr", wspace, wsz);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
}

/* Pieces of random lengths (mostly head-sized, some long) and bytes. */
static char *
pieces(unsigned seed, unsigned n, size_t *lens, char **ptrs)
{
	size_t total = 0, off = 0;
	unsigned u;
	char *all;

	srandom(seed);
	for (u = 0; u < n; u++) {
		switch (random() % 6) {
		case 0: lens[u] = 0; break;
		case 1: lens[u] = 1 + (size_t)random() % 3; break;
		case 2: lens[u] = 1020 + (size_t)random() % 8; break;
		case 3: lens[u] = 1 + (size_t)random() % 9000; break;
		default: lens[u] = 2 + (size_t)random() % 60; break;
		}
		total += lens[u];
	}
	all = malloc(total + 1);
	ck_assert_ptr_nonnull(all);
	for (u = 0; u < n; u++) {
		ptrs[u] = all + off;
		for (size_t i = 0; i < lens[u]; i++)
			all[off + i] = (char)random();
		off += lens[u];
	}
	return (all);
}

/* Write n random pieces through a writer; check the peer's bytes. */
static void
roundtrip(unsigned seed, unsigned n, int slow, size_t sndbuf)
{
	size_t lens[400], total = 0;
	char *ptrs[400], *all;
	struct sink s[1];
	struct h1w w[1];
	pthread_t thr;
	unsigned u;
	int i;

	ck_assert_uint_le(n, 400);
	all = pieces(seed, n, lens, ptrs);
	if (sndbuf > 0) {
		i = (int)sndbuf;
		(void)setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &i, sizeof i);
	}
	ck_assert_int_ne(fcntl(sv[0], F_SETFL, O_NONBLOCK), -1);
	memset(s, 0, sizeof s);
	s->fd = sv[1];
	s->slow = slow;
	s->buf = malloc(MAXOUT);
	ck_assert_ptr_nonnull(s->buf);
	ck_assert_int_eq(pthread_create(&thr, NULL, sink_run, s), 0);

	H1W_Open(w, wrk, sv[0], 0, 0);
	for (u = 0; u < n; u++) {
		H1W_Write(w, ptrs[u], lens[u]);
		total += lens[u];
		if (random() % 17 == 0)
			ck_assert_int_eq(H1W_Flush(w), 0);
	}
	ck_assert_int_eq(H1W_Close(w), 0);
	ck_assert_uint_eq(w->cnt, total);
	(void)close(sv[0]);
	ck_assert_int_eq(pthread_join(thr, NULL), 0);
	ck_assert_uint_eq(s->len, total);
	ck_assert_int_eq(memcmp(s->buf, all, total), 0);
	/* The workspace reservation is released. */
	ck_assert_ptr_null(wrk->aws->r);
	(void)close(sv[1]);
	free(s->buf);
	free(all);
}

START_TEST(test_head_and_body)
{
	static const char body[2000] = "body";
	struct sink s[1];
	struct h1w w[1];
	char want[4096];
	int len;

	setup(16384);
	H1W_Open(w, wrk, sv[0], 0, 0);
	H1W_WriteStr(w, "HTTP/1.1 ");
	H1W_WriteStr(w, "200");
	H1W_WriteStr(w, " ");
	H1W_WriteStr(w, "OK");
	H1W_WriteStr(w, "\r\n");
	H1W_WriteStr(w, "Age: 0");
	H1W_WriteStr(w, "\r\n");
	H1W_WriteStr(w, "\r\n");
	H1W_Write(w, body, sizeof body);
	H1W_WriteStr(w, "tail");
	ck_assert_int_eq(H1W_Close(w), 0);
	(void)close(sv[0]);
	memset(s, 0, sizeof s);
	s->fd = sv[1];
	s->buf = malloc(MAXOUT);
	(void)sink_run(s);
	len = snprintf(want, sizeof want, "HTTP/1.1 200 OK\r\nAge: 0\r\n\r\n");
	memcpy(want + len, body, sizeof body);
	memcpy(want + len + sizeof body, "tail", 4);
	ck_assert_uint_eq(s->len, (size_t)len + sizeof body + 4);
	ck_assert_int_eq(memcmp(s->buf, want, s->len), 0);
	(void)close(sv[1]);
	free(s->buf);
}
END_TEST

START_TEST(test_random_pieces)
{

	setup(16384);
	roundtrip(1000 + (unsigned)_i, 1 + (unsigned)_i * 7 % 300, 0, 0);
}
END_TEST

START_TEST(test_random_pieces_slow_peer)
{

	/* Small send buffer, a reader taking 7 bytes at a time: partial
	 * writes land inside copied runs and inside long pieces. */
	setup(16384);
	roundtrip(2000 + (unsigned)_i, 40 + (unsigned)_i * 13 % 200, 1, 4608);
}
END_TEST

START_TEST(test_random_pieces_few_vectors)
{

	/* A workspace with room for a dozen vectors: the writer flushes
	 * whenever the array fills. */
	setup(12 * sizeof(struct iovec) + 64);
	roundtrip(3000 + (unsigned)_i, 100 + (unsigned)_i, 0, 0);
}
END_TEST

static Suite *
http1_write_suite(void)
{
	Suite *s = suite_create("http1_write");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_head_and_body);
	tcase_add_loop_test(tc, test_random_pieces, 0, 60);
	tcase_add_loop_test(tc, test_random_pieces_slow_peer, 0, 10);
	tcase_add_loop_test(tc, test_random_pieces_few_vectors, 0, 20);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr = srunner_create(http1_write_suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}
