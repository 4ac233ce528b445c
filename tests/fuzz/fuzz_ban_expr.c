/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_ban_expr.c -- the ban expression parser (what the CLI's ban and
 * VCL's ban() will take) and its evaluation.  The input is the
 * expression; an accepted one has a canonical text that parses back to
 * the same expression, and is evaluated, with and without a request,
 * against an object whose headers are made of the input's bytes too.
 */

#include "config.h"

#include <strings.h>

#include "cache/ban_expr.h"
#include "tests/fuzz/fuzz.h"

static const char *fuzz_hdr_val;

static const char *
fuzz_hdr(void *priv, const char *name, size_t *lenp)
{

	(void)priv;
	/* Every other name is absent; the rest share one value. */
	if (strlen(name) % 2)
		return (NULL);
	*lenp = strlen(fuzz_hdr_val);
	return (fuzz_hdr_val);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ban_expr *be, *be2;
	struct ban_obj obj;
	struct ban_req req;
	char err[512], *s;
	int r;

	s = fuzz_cstr(data, size);
	err[0] = '\0';
	be = BAN_ExprParseString(s, err, sizeof err);
	if (be == NULL) {
		assert(err[0] != '\0');
		free(s);
		return (0);
	}
	be2 = BAN_ExprParseString(BAN_ExprText(be), err, sizeof err);
	assert(be2 != NULL);
	assert(BAN_ExprSame(be, be2));
	assert(BAN_ExprUsesReq(be) == BAN_ExprUsesReq(be2));
	BAN_ExprFree(&be2);
	fuzz_hdr_val = s;
	memset(&obj, 0, sizeof obj);
	obj.status = 200;
	obj.ttl = 120;
	obj.hdr = fuzz_hdr;
	memset(&req, 0, sizeof req);
	req.url = s;
	req.url_len = strlen(s);
	req.hdr = fuzz_hdr;
	r = BAN_ExprMatch(be, &req, &obj);
	assert(r == 0 || r == 1);
	r = BAN_ExprMatch(be, NULL, &obj);
	assert(r >= -1 && r <= 1);
	assert(r != -1 || BAN_ExprUsesReq(be));
	BAN_ExprFree(&be);
	free(s);
	return (0);
}
