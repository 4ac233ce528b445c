/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcc_compile.c -- VCC_Compile(): read the main file, lex it and
 * builtin.vcl, parse, check, emit the C; errors leave through vcc_error's
 * longjmp and the arena goes in one free.
 */

#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcc/vcc_comp.h"

/* The API ---------------------------------------------------------------*/

static void
vcc_free(struct vcc *tl)
{
	struct vparse *p = P(tl);
	struct vsub *s;
	size_t i;

	if (p != NULL) {
		for (s = p->subs; s != NULL; s = s->next) {
			free(s->checks);
			free(s->calls);
		}
	}
	for (i = 0; i < tl->narena; i++)
		free(tl->arena[i]);
	free(tl->arena);
	free(tl->toks);
}

/* The file's text in the arena; errors leave through vcc_error. */
static const char *
vcc_read_main(struct vcc *tl, const char *file)
{
	char *text = NULL, *r;
	size_t len = 0, n;
	FILE *f;

	f = fopen(file, "r");
	if (f == NULL)
		vcc_error(tl, NULL, "cannot read %s: %s", file,
		    strerror(errno));
	for (;;) {
		text = realloc(text, len + 65537);
		if (text == NULL)
			abort();
		n = fread(text + len, 1, 65536, f);
		len += n;
		if (n == 0)
			break;
		if (len > VCC_MAX_FILE) {
			(void)fclose(f);
			free(text);
			vcc_error(tl, NULL, "%s is more than %u MB: not a VCL "
			    "file", file, VCC_MAX_FILE >> 20);
		}
	}
	(void)fclose(f);
	text[len] = '\0';
	r = vcc_strndup(tl, text, len);
	free(text);
	if (strlen(r) != len)
		vcc_error(tl, NULL, "%s has a NUL byte: it is not a VCL "
		    "file", file);
	return (r);
}

static void
vcc_run(struct vcc *tl, const char *file, const char *src, char **cp)
{
	struct vparse *p;

	p = vcc_alloc(tl, sizeof *p);
	tl->p = p;
	p->mainname = file;
	if (src == NULL)
		src = vcc_read_main(tl, file);
	vcc_lex_source(tl, file, src, 0, 0);
	vcc_lex_eof(tl);	/* a block cannot run on into builtin.vcl */
	if (!tl->opts->no_builtin) {
		vcc_lex_source(tl, "builtin.vcl", VCC_builtin_vcl, 1, 0);
		vcc_lex_eof(tl);
	}
	if (tl->ntoks == 1 + !tl->opts->no_builtin)
		vcc_error(tl, NULL, "%s is empty; a VCL file starts with "
		    "`vcl 4.1;`", file);
	scan_names(tl);
	parse_toplevel(tl);
	check_program(tl);
	*cp = emit_program(tl);
}

int
VCC_Compile(const struct vcc_opts *opts, const char *file, const char *src,
    char **cp, char **msgp)
{
	struct vcc tl[1];
	volatile int ret = -1;

	*cp = NULL;
	memset(tl, 0, sizeof *tl);
	tl->opts = opts;
	if (setjmp(tl->bail) == 0) {
		vcc_run(tl, file, src, cp);
		ret = 0;
	}
	*msgp = strdup(tl->msg.s != NULL ? tl->msg.s : "");
	vcc_free(tl);
	return (ret);
}
