/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsc_sma_fields.h -- THE table of each malloc store's counters,
 * published as SMA.<store>.<name> (Varnish 7.1's names).  No include
 * guard: define VSC_FIELD(name, type, level, format, doc) and include;
 * the columns are vsc_fields.h's.  Rows are only appended.
 */

VSC_FIELD(c_req,		COUNTER, INFO,  INTEGER,	"Allocations "
	"asked of this store")
VSC_FIELD(c_fail,		COUNTER, INFO,  INTEGER,	"Allocations "
	"that failed even after nuking: the store is too small for what is "
	"being fetched; give it more memory (-s) or cache less")
VSC_FIELD(c_bytes,		COUNTER, INFO,  BYTES,		"Bytes "
	"allocated, slack and object overhead included")
VSC_FIELD(c_freed,		COUNTER, INFO,  BYTES,		"Bytes freed")
VSC_FIELD(g_alloc,		GAUGE,   INFO,  INTEGER,	"Allocations "
	"outstanding")
VSC_FIELD(g_bytes,		GAUGE,   INFO,  BYTES,		"Bytes in "
	"use, counted as the memory they take (what -s limits)")
VSC_FIELD(g_space,		GAUGE,   INFO,  BYTES,		"Bytes left "
	"before the store is full and starts nuking")

#undef VSC_FIELD
