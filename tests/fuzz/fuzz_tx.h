/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_tx.h -- a fixed group of two transactions (a client request and
 * the backend fetch it started) for the query and format targets to
 * evaluate and render.  Tags by name, from the library's table.
 */

#ifndef VENEER_TESTS_FUZZ_TX_H
#define VENEER_TESTS_FUZZ_TX_H

#include "vapi.h"
#include "tests/fuzz/fuzz.h"

#define FUZZ_TX_MAXREC		16

struct fuzz_tx {
	struct vapi_tx		tx;
	struct vapi_rec		recs[FUZZ_TX_MAXREC];
	uint32_t		raw[FUZZ_TX_MAXREC][2];
};

static struct fuzz_tx fuzz_req, fuzz_bereq;
static struct vapi_tx *fuzz_group[2];

static inline void
fuzz_tx_add(struct fuzz_tx *m, const char *tag, const char *data)
{
	struct vapi_rec *r;
	int t;

	t = VAPI_TagByName(tag);
	assert(t > 0);
	assert(m->tx.nrec < FUZZ_TX_MAXREC);
	r = &m->recs[m->tx.nrec];
	r->tag = (unsigned)t;
	r->vxid = m->tx.vxid;
	r->side = m->tx.type == VAPI_T_BEREQ ? 'b' : 'c';
	r->data = data;
	r->len = (unsigned)strlen(data) + 1;
	m->raw[m->tx.nrec][0] = r->tag << 24 | r->len;
	m->raw[m->tx.nrec][1] = r->vxid;
	r->ptr = m->raw[m->tx.nrec];
	m->tx.nrec++;
	m->tx.recs = m->recs;
}

static inline void
fuzz_tx_init(void)
{

	fuzz_req.tx.vxid = 1001;
	fuzz_req.tx.type = VAPI_T_REQ;
	fuzz_req.tx.level = 1;
	fuzz_req.tx.complete = 1;
	fuzz_req.tx.reason = "rxreq";
	fuzz_tx_add(&fuzz_req, "Begin", "req 1000 rxreq");
	fuzz_tx_add(&fuzz_req, "ReqMethod", "GET");
	fuzz_tx_add(&fuzz_req, "ReqURL", "/img/logo.png?v=2");
	fuzz_tx_add(&fuzz_req, "ReqProtocol", "HTTP/1.1");
	fuzz_tx_add(&fuzz_req, "ReqHeader", "Host: example.com");
	fuzz_tx_add(&fuzz_req, "ReqHeader", "User-Agent: Mozilla/5.0");
	fuzz_tx_add(&fuzz_req, "Timestamp",
	    "Start: 1700000000.100000 0.000000 0.000000");
	fuzz_tx_add(&fuzz_req, "Timestamp",
	    "Resp: 1700000001.600000 1.500000 0.002999");
	fuzz_tx_add(&fuzz_req, "RespStatus", "304");
	fuzz_tx_add(&fuzz_req, "RespHeader", "Content-Type: text/html");
	fuzz_tx_add(&fuzz_req, "ReqAcct", "95 0 95 241 12345 12586");
	fuzz_tx_add(&fuzz_req, "VCL_Log", "key: value with \"quotes\"");
	fuzz_tx_add(&fuzz_req, "End", "");
	fuzz_bereq.tx.vxid = 1002;
	fuzz_bereq.tx.type = VAPI_T_BEREQ;
	fuzz_bereq.tx.level = 2;
	fuzz_bereq.tx.complete = 1;
	fuzz_bereq.tx.reason = "fetch";
	fuzz_bereq.tx.parent = &fuzz_req.tx;
	fuzz_tx_add(&fuzz_bereq, "Begin", "bereq 1001 fetch");
	fuzz_tx_add(&fuzz_bereq, "BereqURL", "/img/logo.png?v=2");
	fuzz_tx_add(&fuzz_bereq, "BerespStatus", "503");
	fuzz_tx_add(&fuzz_bereq, "End", "");
	fuzz_group[0] = &fuzz_req.tx;
	fuzz_group[1] = &fuzz_bereq.tx;
}

#endif /* VENEER_TESTS_FUZZ_TX_H */
