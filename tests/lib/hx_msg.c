/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * hx_msg.c -- parsed HTTP/1 messages: splitting a received head into the
 * start line and header fields, header lookups, release.
 *
 * The parser is strict where a lax one would hide a veneerd bug (a header
 * line without a colon, obs-fold, blanks before the colon, a bad start
 * line) and says what it found in why.  Bare LF line ends are accepted.
 */

#include "config.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/harness.h"

static void
hxm_why(char *why, size_t whylen, const char *what, const char *line)
{
	size_t n;

	n = strcspn(line, "\r\n");
	if (n > 60)
		n = 60;
	(void)snprintf(why, whylen, "%s: \"%.*s\"", what, (int)n, line);
}

/* Cut the line at p: NUL its end, return the start of the next. */
static char *
hxm_cut_line(char *p)
{
	char *nl;

	nl = strchr(p, '\n');
	if (nl == NULL)
		return (NULL);
	*nl = '\0';
	if (nl > p && nl[-1] == '\r')
		nl[-1] = '\0';
	return (nl + 1);
}

static char *
hxm_trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return (s);
}

static int
hxm_start_line(struct hx_msg *m, char *line, int request, char *why,
    size_t whylen)
{
	char *sp1, *sp2, *end;
	long status;

	sp1 = strchr(line, ' ');
	if (sp1 == NULL) {
		hxm_why(why, whylen, "start line without a blank", line);
		return (-1);
	}
	*sp1++ = '\0';
	if (request) {
		sp2 = strchr(sp1, ' ');
		if (sp2 == NULL || strchr(sp2 + 1, ' ') != NULL) {
			hxm_why(why, whylen, "bad request line", sp1);
			return (-1);
		}
		*sp2++ = '\0';
		m->method = line;
		m->url = sp1;
		m->proto = sp2;
		if (strncmp(m->proto, "HTTP/1.", 7) != 0) {
			hxm_why(why, whylen, "bad protocol", m->proto);
			return (-1);
		}
		return (0);
	}
	m->proto = line;
	if (strncmp(m->proto, "HTTP/1.", 7) != 0) {
		hxm_why(why, whylen, "bad status line protocol", m->proto);
		return (-1);
	}
	status = strtol(sp1, &end, 10);
	if (end != sp1 + 3 || status < 100 || status > 999 ||
	    (*end != ' ' && *end != '\0')) {
		hxm_why(why, whylen, "bad status code", sp1);
		return (-1);
	}
	m->status = (int)status;
	m->reason = *end == ' ' ? end + 1 : end;
	return (0);
}

static int
hxm_fields(struct hx_msg *m, char *p, char *why, size_t whylen)
{
	char *next, *colon;
	unsigned n;

	n = 1;
	for (next = strchr(p, '\n'); next != NULL;
	    next = strchr(next + 1, '\n'))
		n++;
	m->hdr = calloc(n, sizeof *m->hdr);
	if (m->hdr == NULL) {
		(void)snprintf(why, whylen, "out of memory");
		return (-1);
	}
	for (; p != NULL && *p != '\0'; p = next) {
		next = hxm_cut_line(p);
		if (*p == '\0')
			break;			/* the blank line */
		if (*p == ' ' || *p == '\t') {
			hxm_why(why, whylen, "obs-fold line", p);
			return (-1);
		}
		colon = strchr(p, ':');
		if (colon == NULL || colon == p) {
			hxm_why(why, whylen, "header line without a name "
			    "and colon", p);
			return (-1);
		}
		if (colon[-1] == ' ' || colon[-1] == '\t') {
			hxm_why(why, whylen, "blank before colon", p);
			return (-1);
		}
		*colon = '\0';
		assert(m->nhdr < n);
		m->hdr[m->nhdr].name = p;
		m->hdr[m->nhdr].value = hxm_trim(colon + 1);
		m->nhdr++;
	}
	return (0);
}

int
HXM_Parse(struct hx_msg *m, const char *head, size_t len, int request,
    char *why, size_t whylen)
{
	char *p;

	m->head = malloc(len + 1);
	m->work = malloc(len + 1);
	if (m->head == NULL || m->work == NULL) {
		(void)snprintf(why, whylen, "out of memory");
		return (-1);
	}
	memcpy(m->head, head, len);
	m->head[len] = '\0';
	m->headlen = len;
	memcpy(m->work, head, len);
	m->work[len] = '\0';
	if (strlen(m->work) != len) {
		(void)snprintf(why, whylen, "NUL byte in the header section");
		return (-1);
	}
	p = hxm_cut_line(m->work);
	if (p == NULL) {
		(void)snprintf(why, whylen, "unterminated start line");
		return (-1);
	}
	if (hxm_start_line(m, m->work, request, why, whylen) != 0)
		return (-1);
	return (hxm_fields(m, p, why, whylen));
}

int
HX_HasField(const char *hdrs, const char *name)
{
	const char *p;
	size_t len;

	if (hdrs == NULL)
		return (0);
	len = strlen(name);
	for (p = hdrs; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (strncasecmp(p, name, len) == 0 && p[len] == ':')
			return (1);
	}
	return (0);
}

const char *
HX_Header(const struct hx_msg *m, const char *name)
{
	unsigned u;

	assert(m != NULL && m->magic == HX_MSG_MAGIC);
	for (u = 0; u < m->nhdr; u++)
		if (strcasecmp(m->hdr[u].name, name) == 0)
			return (m->hdr[u].value);
	return (NULL);
}

unsigned
HX_HeaderCount(const struct hx_msg *m, const char *name)
{
	unsigned u, n;

	assert(m != NULL && m->magic == HX_MSG_MAGIC);
	for (u = n = 0; u < m->nhdr; u++)
		if (strcasecmp(m->hdr[u].name, name) == 0)
			n++;
	return (n);
}

int
HX_HeaderHasToken(const struct hx_msg *m, const char *name,
    const char *token)
{
	const char *p, *e;
	size_t tlen;
	unsigned u;

	assert(m != NULL && m->magic == HX_MSG_MAGIC);
	tlen = strlen(token);
	for (u = 0; u < m->nhdr; u++) {
		if (strcasecmp(m->hdr[u].name, name) != 0)
			continue;
		for (p = m->hdr[u].value; *p != '\0'; p = e) {
			while (*p == ' ' || *p == '\t' || *p == ',')
				p++;
			e = p + strcspn(p, ",");
			while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
			if ((size_t)(e - p) == tlen &&
			    strncasecmp(p, token, tlen) == 0)
				return (1);
			e += strcspn(e, ",");
		}
	}
	return (0);
}

void
HX_MsgFree(struct hx_msg **mp)
{
	struct hx_msg *m;
	unsigned u;

	m = *mp;
	*mp = NULL;
	if (m == NULL)
		return;
	assert(m->magic == HX_MSG_MAGIC);
	for (u = 0; u < m->ninterim; u++)
		HX_MsgFree(&m->interim[u]);
	for (u = 0; u < m->ntrailer; u++)
		free(m->trailer[u].name);	/* value points into it */
	free(m->head);
	free(m->work);
	free(m->hdr);
	free(m->trailer);
	free(m->body);
	m->magic = 0;
	free(m);
}

void
HX_HeaderIs(const struct hx_msg *m, const char *name, const char *want)
{
	const char *v = HX_Header(m, name);

	ck_assert_msg(v != NULL && !strcmp(v, want),
	    "%s: expected \"%s\", got \"%s\"", name, want,
	    v == NULL ? "(none)" : v);
}
