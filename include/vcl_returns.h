/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcl_returns.h -- VCL methods and the actions they may return, as VCL
 * 4.x defines them.  No include guard.  Used by the daemon's state
 * machines and by the VCL compiler (which refuses illegal returns).
 *
 * VCL_RET(name, NAME)
 * VCL_MET(name, NAME, side, legal returns)
 *   side	CLIENT (runs for a client request), BACKEND (for a backend
 *		fetch) or HOUSEKEEPING (vcl_init/vcl_fini)
 */

#ifdef VCL_RET
VCL_RET(abandon,	ABANDON)
VCL_RET(deliver,	DELIVER)
VCL_RET(error,		ERROR)
VCL_RET(fail,		FAIL)
VCL_RET(fetch,		FETCH)
VCL_RET(hash,		HASH)
VCL_RET(lookup,		LOOKUP)
VCL_RET(miss,		MISS)
VCL_RET(ok,		OK)
VCL_RET(pass,		PASS)
VCL_RET(pipe,		PIPE)
VCL_RET(purge,		PURGE)
VCL_RET(restart,	RESTART)
VCL_RET(retry,		RETRY)
VCL_RET(synth,		SYNTH)
VCL_RET(vcl,		VCL)
#undef VCL_RET
#endif

#ifdef VCL_MET
#define VR_(x)	(1U << VCL_RET_##x)
VCL_MET(recv,		RECV,		CLIENT,
	VR_(FAIL) | VR_(HASH) | VR_(PASS) | VR_(PIPE) | VR_(PURGE) |
	VR_(RESTART) | VR_(SYNTH) | VR_(VCL))
VCL_MET(pipe,		PIPE,		CLIENT,
	VR_(FAIL) | VR_(PIPE) | VR_(SYNTH))
VCL_MET(pass,		PASS,		CLIENT,
	VR_(FAIL) | VR_(FETCH) | VR_(RESTART) | VR_(SYNTH))
VCL_MET(hash,		HASH,		CLIENT,
	VR_(FAIL) | VR_(LOOKUP))
VCL_MET(purge,		PURGE,		CLIENT,
	VR_(FAIL) | VR_(RESTART) | VR_(SYNTH))
VCL_MET(miss,		MISS,		CLIENT,
	VR_(FAIL) | VR_(FETCH) | VR_(PASS) | VR_(RESTART) | VR_(SYNTH))
/* miss: VCL 4.0's return (fetch) and 5.x's return (miss), kept working */
VCL_MET(hit,		HIT,		CLIENT,
	VR_(DELIVER) | VR_(FAIL) | VR_(MISS) | VR_(PASS) | VR_(RESTART) |
	VR_(SYNTH))
VCL_MET(deliver,	DELIVER,	CLIENT,
	VR_(DELIVER) | VR_(FAIL) | VR_(RESTART) | VR_(SYNTH))
VCL_MET(synth,		SYNTH,		CLIENT,
	VR_(DELIVER) | VR_(FAIL) | VR_(RESTART))
VCL_MET(backend_fetch,	BACKEND_FETCH,	BACKEND,
	VR_(ABANDON) | VR_(ERROR) | VR_(FAIL) | VR_(FETCH))
VCL_MET(backend_response, BACKEND_RESPONSE, BACKEND,
	VR_(ABANDON) | VR_(DELIVER) | VR_(ERROR) | VR_(FAIL) | VR_(PASS) |
	VR_(RETRY))
VCL_MET(backend_error,	BACKEND_ERROR,	BACKEND,
	VR_(ABANDON) | VR_(DELIVER) | VR_(FAIL) | VR_(RETRY))
VCL_MET(init,		INIT,		HOUSEKEEPING,
	VR_(FAIL) | VR_(OK))
VCL_MET(fini,		FINI,		HOUSEKEEPING,
	VR_(OK))
#undef VR_
#undef VCL_MET
#endif
