/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_esi.c -- the ESI parser (src/cache/esi_parse.c), as fetch.c feeds
 * it a body in the pieces the backend sends.
 *
 * Input: a knob byte (its low 5 bits: the ESI_F_* options; the high 3:
 * the piece size, 1 to 8 bytes, 0 meaning all at once), then the body.
 * Checks: the instructions decode, their verbatim and skip runs cover
 * the body exactly, and the same body parsed whole gives the same list.
 */

#include "config.h"

#include "cache/esi.h"
#include "tests/fuzz/fuzz.h"

struct fuzz_out {
	uint8_t		*ops;
	size_t		len;
	size_t		space;
};

static void
fuzz_ops(void *priv, const void *p, size_t len)
{
	struct fuzz_out *o = priv;

	if (o->len + len > o->space) {
		o->space = (o->len + len) * 2;
		o->ops = realloc(o->ops, o->space);
		assert(o->ops != NULL);
	}
	memcpy(o->ops + o->len, p, len);
	o->len += len;
}

static void
fuzz_msg(void *priv, enum esi_msg kind, uint64_t after, const char *text)
{

	(void)priv;
	(void)after;
	assert(kind == ESI_MSG_ERROR || kind == ESI_MSG_WARN ||
	    kind == ESI_MSG_NOTXML);
	assert(text != NULL && *text != '\0');
}

static int
fuzz_parse(const uint8_t *body, size_t len, unsigned flags, size_t step,
    struct fuzz_out *o)
{
	struct esi_parser *ep;
	void *mem;
	size_t at, n;
	int found;

	mem = malloc(ESI_ParserSize());
	assert(mem != NULL);
	ep = ESI_ParserInit(mem, "/a/b?c", flags, fuzz_ops, fuzz_msg, o);
	for (at = 0; at < len; at += n) {
		n = step == 0 || step > len - at ? len - at : step;
		ESI_Parse(ep, (const char *)body + at, n);
	}
	found = ESI_Finish(ep);
	free(mem);
	return (found);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_out o1 = { NULL, 0, 0 }, o2 = { NULL, 0, 0 };
	const uint8_t *p, *end;
	const char *host, *url;
	uint64_t off = 0, n = 0;
	unsigned flags;
	size_t step;
	int op, how = 0, f1, f2;

	if (size < 1)
		return (0);
	flags = data[0] & 0x1f;
	step = (size_t)(data[0] >> 5);
	f1 = fuzz_parse(data + 1, size - 1, flags, step, &o1);
	f2 = fuzz_parse(data + 1, size - 1, flags, 0, &o2);
	assert(f1 == f2);
	assert(o1.len == o2.len);
	assert(o1.len == 0 || !memcmp(o1.ops, o2.ops, o1.len));
	p = o1.ops;
	end = p == NULL ? NULL : p + o1.len;
	while (p != NULL && p < end) {
		op = ESI_NextOp(&p, end, &n, &how, &host, &url);
		assert(op != 0);
		if (op == ESI_OP_VERBATIM || op == ESI_OP_SKIP) {
			assert(n > 0);
			off += n;
		} else {
			assert(how == ESI_INCL_ABORT ||
			    how == ESI_INCL_CONTINUE);
			assert(*url == '/');
		}
	}
	assert(off == size - 1);
	free(o1.ops);
	free(o2.ops);
	return (0);
}
