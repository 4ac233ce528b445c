/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_vary.c -- the Vary names (RFC_VaryNames, as fetch.c's bo_vary
 * takes them from a response), the variant blob (VRY_Build) and the
 * matcher (VRY_Match).
 *
 * Input: a knob byte (the room for names and the workspace), then up to
 * the first newline the response's Vary values ('|' starts another Vary
 * line), then the request's header lines.  Both heads go through the
 * real H1 parsers first, so the headers are what a client or backend
 * could really send.  Checks: a request matches the blob built from it,
 * the blob starts with the names, and each name's value is what a naive
 * reference finds: every line of exactly that name, joined with ", ".
 */

#include "config.h"

#include <stdio.h>

#include "cache/rfc.h"
#include "cache/vary.h"
#include "cache/ws.h"
#include "tests/fuzz/fuzz_h1.h"

#define FUZZ_VARY_HDR_LEN	8192
#define FUZZ_VARY_NHDR		(256 + HTTP_HDR_FIRST)
#define FUZZ_VARY_NAMES_STEP	16
#define FUZZ_VARY_WS_STEP	64

struct fuzz_msg {
	struct http		http;
	struct txt		hd[FUZZ_VARY_NHDR];
	unsigned char		hdf[FUZZ_VARY_NHDR];
	char			*buf;
};

static char fuzz_vsl[1024];

/* Parse the head [b, b + len); 0 or -1. */
static int
fuzz_msg_parse(struct fuzz_msg *m, const char *b, size_t len, int req)
{
	const char *why;

	m->buf = malloc(len);
	assert(m->buf != NULL);
	memcpy(m->buf, b, len);
	HTTP_Setup(&m->http, NULL, m->hd, m->hdf, FUZZ_VARY_NHDR,
	    (struct vsl_log *)fuzz_vsl,
	    req ? SLT_BereqMethod : SLT_BerespMethod);
	if (req)
		return (H1_ParseRequest(&m->http, m->buf, m->buf + len,
		    FUZZ_VARY_HDR_LEN, &why) == 0 ? 0 : -1);
	return (H1_ParseResponse(&m->http, m->buf, m->buf + len,
	    FUZZ_VARY_HDR_LEN, &why));
}

/* A head: start line, the lines of [b, e) (sep starts a new one), end. */
static size_t
fuzz_head(char *out, const char *start, const char *prefix, const char *b,
    const char *e, char sep)
{
	size_t l;

	l = (size_t)snprintf(out, strlen(start) + strlen(prefix) + 1, "%s%s",
	    start, prefix);
	for (; b < e; b++) {
		if (*b == sep) {
			memcpy(out + l, "\r\n", 2);
			l += 2;
			l += (size_t)snprintf(out + l, strlen(prefix) + 1, "%s",
			    prefix);
		} else {
			out[l++] = *b;
		}
	}
	memcpy(out + l, "\r\n\r\n", 4);
	return (l + 4);
}

/*
 * The reference for name: every line whose whole name is name (any
 * case) and not hop-by-hop, values joined with ", ", compared with the
 * blob's value for it (absent when there is no such line).
 */
static void
fuzz_vary_ref(const struct http *hp, const char *name, const char *blob,
    size_t len)
{
	const char *p = blob + VRY_NamesLen(blob), *v = NULL, *q;
	size_t nl = strlen(name), o = 0;
	struct txt t;
	unsigned u, found = 0;

	while (p < blob + len) {
		q = p + strlen(p) + 1;
		if (!strcmp(p, name)) {
			v = q;
			break;
		}
		p = q + strlen(q) + 1;
	}
	for (u = HTTP_HDR_FIRST; u < hp->nhd; u++) {
		if ((hp->hdf[u] & HDF_FILTER) || !HTTP_IsHdr(hp, u, name, nl))
			continue;
		t = HTTP_HdrValue(hp, u);
		assert(v != NULL);
		if (found++ > 0) {
			assert(!strncmp(v + o, ", ", 2));
			o += 2;
		}
		assert(!strncmp(v + o, t.b, TXT_LEN(t)));
		o += TXT_LEN(t);
	}
	if (found == 0)
		assert(v == NULL);
	else
		assert(v[o] == '\0');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char vary[] = "Vary: ";
	struct fuzz_msg resp, req;
	struct ws ws;
	const char *in, *nl, *end;
	char *head, *names, *space, *blob, *blob2;
	const char *p, *why;
	size_t names_len, ws_len, hl;
	ssize_t l, l2;
	unsigned knob;
	int n;

	knob = fuzz_byte(&data, &size);
	names_len = FUZZ_VARY_NAMES_STEP * (1 + (knob & 0xf));
	ws_len = FUZZ_VARY_WS_STEP * (1 + (knob >> 4)) + 2 * size;
	in = (const char *)data;
	end = in + size;
	nl = memchr(in, '\n', size);
	if (nl == NULL)
		nl = end;
	/* Every input byte may grow into a line's prefix and its CRLF. */
	head = malloc(64 + size * (sizeof vary + 2));
	names = malloc(names_len);
	space = malloc(ws_len);
	assert(head != NULL && names != NULL && space != NULL);
	memset(&resp, 0, sizeof resp);
	memset(&req, 0, sizeof req);

	hl = fuzz_head(head, "HTTP/1.1 200 OK\r\n", vary, in, nl, '|');
	if (fuzz_msg_parse(&resp, head, hl, 0) != 0)
		goto done;
	hl = fuzz_head(head, "GET / HTTP/1.1\r\n", "",
	    nl < end ? nl + 1 : end, end, '\n');
	/* An empty line ends the head early: that is not a request. */
	if (fuzz_msg_parse(&req, head, hl, 1) != 0)
		goto done;

	/* As the session takes a request in. */
	HTTP_FilterHopByHop(&req.http);
	if (HTTP_UnsetConnectionNamed(&req.http, &why) != 0)
		goto done;
	n = RFC_VaryNames(&resp.http, names, names_len);
	if (n <= 0) {
		assert(n == 0 || n == -1 || n == -2);
		goto done;
	}
	WS_Init(&ws, "fz", space, ws_len);
	l = VRY_Build(&ws, &req.http, names, &blob);
	if (l < 0)
		goto done;
	assert((size_t)l >= VRY_NamesLen(names));
	assert(VRY_NamesLen(blob) == VRY_NamesLen(names));
	assert(!memcmp(blob, names, VRY_NamesLen(names)));
	/* The same request builds the same blob, and matches it. */
	l2 = VRY_Build(&ws, &req.http, names, &blob2);
	if (l2 >= 0)
		assert(l2 == l && !memcmp(blob, blob2, (size_t)l));
	assert(VRY_Match(&req.http, blob, (size_t)l) == 1);
	/* Each name's value is exactly what the request sent for it. */
	for (p = names; *p != '\0'; p += strlen(p) + 1)
		fuzz_vary_ref(&req.http, p, blob, (size_t)l);
	/* The response's own headers as a request: any answer is fine. */
	(void)VRY_Match(&resp.http, blob, (size_t)l);
	WS_Assert(&ws);

done:
	free(resp.buf);
	free(req.buf);
	free(head);
	free(names);
	free(space);
	return (0);
}
