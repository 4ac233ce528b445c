/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * sess_close.h -- why a client connection was closed.  No include guard.
 * The names are Varnish's (SessClose log records and sc_* counters keep
 * their spelling); rows are only appended.
 *
 * SESS_CLOSE(NAME, counter, is_error, doc)
 */

SESS_CLOSE(REM_CLOSE,	  rem_close,	 0, "Client closed the connection")
SESS_CLOSE(REQ_CLOSE,	  req_close,	 0, "Client asked to close "
	"(Connection: close)")
SESS_CLOSE(REQ_HTTP10,	  req_http10,	 1, "HTTP/1.0 request without "
	"keep-alive")
SESS_CLOSE(RX_BAD,	  rx_bad,	 1, "Malformed request received")
SESS_CLOSE(RX_BODY,	  rx_body,	 1, "Failed to receive the request "
	"body")
SESS_CLOSE(RX_JUNK,	  rx_junk,	 1, "Received junk instead of a "
	"request")
SESS_CLOSE(RX_OVERFLOW,	  rx_overflow,	 1, "Request header too large "
	"(http_req_size, http_req_hdr_len, http_max_hdr)")
SESS_CLOSE(RX_TIMEOUT,	  rx_timeout,	 1, "Client too slow sending a "
	"request (timeout_idle)")
SESS_CLOSE(RX_CLOSE_IDLE, rx_close_idle, 0, "Idle connection closed "
	"(timeout_idle)")
SESS_CLOSE(TX_PIPE,	  tx_pipe,	 0, "Piped transaction ended")
SESS_CLOSE(TX_ERROR,	  tx_error,	 1, "Failed to send the response "
	"(client gone or send_timeout)")
SESS_CLOSE(TX_EOF,	  tx_eof,	 0, "Response delimited by closing "
	"the connection")
SESS_CLOSE(RESP_CLOSE,	  resp_close,	 0, "Backend or VCL asked to close")
SESS_CLOSE(OVERLOAD,	  overload,	 1, "Out of a resource (threads, "
	"workspace, memory)")
SESS_CLOSE(PIPE_OVERFLOW, pipe_overflow, 1, "Pipe buffer overflow")
SESS_CLOSE(RANGE_SHORT,	  range_short,	 1, "Not enough data for the "
	"range requested")
SESS_CLOSE(REQ_HTTP20,	  req_http20,	 1, "HTTP/2 not accepted")
SESS_CLOSE(VCL_FAILURE,	  vcl_failure,	 1, "VCL failed")

#undef SESS_CLOSE
