/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * veneeradm -- talk to a running veneerd's admin CLI (or varnishd's: the
 * protocol is the same).  The address and the secret come from -T and
 * -S, or from the workdir's shared memory (-n), where veneerd publishes
 * them.  With a command: run it, print the answer, exit 0 if its status
 * was 200.  Without one: a line at a time from stdin; when stdin and
 * stdout are terminals, through the line editor of adm_tty.c, with
 * history (~/.veneeradm_history) and completion of command, parameter
 * and VCL names asked from the server.
 */

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "vapi.h"
#include "common/addr.h"
#include "common/cli.h"
#include "common/miniobj.h"
#include "common/sha256.h"
#include "vsm/vapi_json.h"
#include "adm_tty.h"

static double adm_timeout = 5;

static void __attribute__((__noreturn__, __format__(__printf__, 1, 2)))
adm_die(const char *fmt, ...)
{
	va_list ap;

	fputs("veneeradm: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void
adm_usage(FILE *f)
{

	fprintf(f,
"usage: veneeradm [-n workdir | -T address:port [-S secretfile]]\n"
"                 [-t timeout] [command [argument ...]]\n"
"  -n workdir   the veneerd (or varnishd) whose CLI to use: its address\n"
"               and secret file are read from the workdir's shared memory\n"
"  -T addr:port the CLI address, as veneerd's -T\n"
"  -S file      the secret file, as veneerd's -S\n"
"  -t seconds   how long to wait for an answer (default 5)\n"
"Without a command, commands are read from stdin, one per line (with\n"
"line editing, history and Tab completion on a terminal).\n");
}

/* Connect to "host port" (or host:port); the fd, or -1. */
static int
adm_connect(const char *host, const char *port)
{
	const char *why;

	return (ADDR_ConnectHost(host, port, &why));
}

/* -T's argument as veneerd's -T takes it: host:port, [v6]:port, "h p". */
static int
adm_connect_arg(const char *arg)
{
	char host[256], port[64];
	const char *why;

	/* Checked first: a malformed -T is a usage error, not "no answer". */
	if (ADDR_Split(arg, ADDR_F_SPACE | ADDR_F_NEEDPORT, host, sizeof host,
	    port, sizeof port, &why) != 0)
		adm_die("-T %s: %s", arg, why);
	return (adm_connect(*host == '\0' ? "localhost" : host, port));
}

/* The first "address port" line of text that connects. */
static int
adm_connect_lines(const char *text)
{
	char host[256], port[16];
	const char *p, *nl, *sp;
	int fd = -1;

	for (p = text; *p != '\0' && fd < 0; p = *nl == '\0' ? nl : nl + 1) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		sp = memchr(p, ' ', (size_t)(nl - p));
		if (sp == NULL || (size_t)(sp - p) >= sizeof host ||
		    (size_t)(nl - sp - 1) >= sizeof port)
			continue;
		(void)snprintf(host, sizeof host, "%.*s", (int)(sp - p), p);
		(void)snprintf(port, sizeof port, "%.*s", (int)(nl - sp - 1),
		    sp + 1);
		fd = adm_connect(host, port);
	}
	return (fd);
}

/* The contents of a segment of the manager's shared memory (strdup'ed). */
static char *
adm_arg_seg(struct vapi *vd, const char *ident)
{
	struct vapi_seg seg;
	const char *b, *e;
	char *s;

	if (VAPI_SegFind(vd, "Arg", ident, &seg) != 0)
		return (NULL);
	b = seg.b;
	e = memchr(b, '\0', (size_t)((const char *)seg.e - b));
	if (e == NULL)
		e = seg.e;
	s = strndup(b, (size_t)(e - b));
	VAPI_SegRelease(vd, &seg);
	return (s);
}

/* Log in; the banner that comes back (caller frees). */
static char *
adm_auth(int fd, const char *challenge, const char *secret_file)
{
	char hex[2 * SHA256_LEN + 1], line[2 * SHA256_LEN + 8], *body;
	unsigned char d[SHA256_LEN], buf[4096];
	struct sha256_ctx ctx;
	unsigned status;
	size_t n;
	FILE *f;

	if (secret_file == NULL)
		adm_die("the CLI asks for authentication: give -S (or -n)");
	if (strlen(challenge) < 32)
		adm_die("malformed challenge from the CLI");
	f = fopen(secret_file, "r");
	if (f == NULL)
		adm_die("cannot read the secret %s: %s", secret_file,
		    strerror(errno));
	SHA256_Init(&ctx);
	SHA256_Update(&ctx, challenge, 32);
	SHA256_Update(&ctx, "\n", 1);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		SHA256_Update(&ctx, buf, n);
	(void)fclose(f);
	SHA256_Update(&ctx, challenge, 32);
	SHA256_Update(&ctx, "\n", 1);
	SHA256_Final(&ctx, d);
	SHA256_Hex(d, hex);
	(void)snprintf(line, sizeof line, "auth %s", hex);
	if (CLI_WriteRequest(fd, line) != 0 ||
	    CLI_ReadResult(fd, &status, &body, adm_timeout) != 0)
		adm_die("the CLI closed the connection during authentication");
	if (status != CLIS_OK)
		adm_die("authentication failed (status %u): wrong secret?",
		    status);
	return (body);
}

/* Append arg to line, quoted when it has to be. */
static void
adm_quote(char **line, size_t *len, const char *arg)
{
	char *w;
	size_t l;

	w = CLI_QuoteWord(arg);
	if (w == NULL)
		adm_die("out of memory");
	l = strlen(w);
	*line = realloc(*line, *len + l + 2);
	if (*line == NULL)
		adm_die("out of memory");
	if (*len > 0)
		(*line)[(*len)++] = ' ';
	memcpy(*line + *len, w, l + 1);
	*len += l;
	free(w);
}

/* Has the server closed the connection? */
static int
adm_closed(int fd)
{
	struct pollfd pfd;
	char c;

	pfd.fd = fd;
	pfd.events = POLLIN;
	return (poll(&pfd, 1, 0) == 1 &&
	    recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0);
}

static void __attribute__((__noreturn__))
adm_read_failed(int fd)
{

	if (adm_closed(fd))
		adm_die("the CLI closed the connection");
	adm_die("no answer from the CLI within %.0f s (-t)", adm_timeout);
}

/* On a terminal, answers show their status first, as varnishadm's. */
static int adm_show_status;

/* Read an answer, print it; its status. */
static unsigned
adm_answer(int fd)
{
	unsigned status;
	char *body;
	size_t l;

	if (CLI_ReadResult(fd, &status, &body, adm_timeout) != 0)
		adm_read_failed(fd);
	if (adm_show_status)
		printf("%u\n", status);
	l = strlen(body);
	fputs(body, stdout);
	if (l == 0 || body[l - 1] != '\n')
		fputc('\n', stdout);
	(void)fflush(stdout);
	free(body);
	return (status);
}

/* Send a line, print the answer; its status. */
static unsigned
adm_ask(int fd, const char *line)
{

	if (CLI_WriteRequest(fd, line) != 0) {
		if (errno == EPIPE || adm_closed(fd))
			adm_die("the CLI closed the connection");
		adm_die("cannot send to the CLI: %s", strerror(errno));
	}
	return (adm_answer(fd));
}

/* Is this line the start of a << document?  Its token, or NULL. */
static char *
adm_heredoc(const char *line)
{
	const char *err;
	char **av, *tok = NULL;
	int ac;

	av = CLI_ParseArgs(line, &err);
	if (av == NULL)
		return (NULL);
	for (ac = 0; av[ac] != NULL; ac++)
		continue;
	if (ac >= 3 && !strcmp(av[ac - 2], "<<"))
		tok = strdup(av[ac - 1]);
	CLI_FreeArgs(av);
	return (tok);
}

/* Commands from stdin; 0 if every one answered 200. */
static int
adm_lines(int fd)
{
	char *line = NULL, *tok = NULL;
	size_t cap = 0;
	ssize_t n;
	int tty = isatty(STDIN_FILENO), bad = 0;
	unsigned status;

	for (;;) {
		/* A terminal in, a file out: the prompt must not go there. */
		if (tty) {
			fputs(tok != NULL ? "> " : "veneer> ", stderr);
			(void)fflush(stderr);
		}
		n = getline(&line, &cap, stdin);
		if (n < 0)
			break;
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if (tok != NULL) {
			/* Inside a document: the answer comes at its end. */
			if (CLI_WriteRequest(fd, line) != 0)
				adm_die("cannot send to the CLI");
			if (strcmp(line, tok))
				continue;
			free(tok);
			tok = NULL;
			status = adm_answer(fd);
		} else if (line[strspn(line, " \t")] == '\0') {
			continue;
		} else if ((tok = adm_heredoc(line)) != NULL) {
			if (CLI_WriteRequest(fd, line) != 0)
				adm_die("cannot send to the CLI");
			continue;
		} else {
			status = adm_ask(fd, line);
		}
		if (status == CLIS_CLOSE)
			break;
		if (status != CLIS_OK) {
			bad = 1;
			if (!tty)
				fprintf(stderr, "Command failed with error "
				    "code %u\n", status);
		}
	}
	free(line);
	free(tok);
	return (bad);
}

/*--------------------------------------------------------------------
 * Interactive: the line editor, history, completion.
 */

struct adm_sess {
	unsigned		magic;
#define ADM_SESS_MAGIC		0x0b7d52e6
	int			fd;
	struct adm_words	cmds;		/* from help, once */
	struct adm_words	params;		/* from param.show -j, once */
	int			have_params;
	struct adm_hist		hist;
	char			*hist_path;	/* owned; NULL: memory only */
	char			*tok;		/* owned: document's end */
};

/*
 * Ask without printing, for completion: the body of a 200 answer
 * (caller frees), or NULL.  A dead connection is noticed by the editor,
 * which watches the socket, so this never dies of it.
 */
static char *
adm_query(int fd, const char *line)
{
	unsigned status;
	char *body;

	if (CLI_WriteRequest(fd, line) != 0 ||
	    CLI_ReadResult(fd, &status, &body, adm_timeout) != 0)
		return (NULL);
	if (status == CLIS_OK)
		return (body);
	free(body);
	return (NULL);
}

/*
 * The strings named key in the objects of a -j answer ([ 2, [...], time,
 * {...}, ...]) into w; the number found.
 */
static unsigned
adm_json_names(const char *body, const char *key, struct adm_words *w)
{
	const struct vjson *o, *m;
	struct vjson *root;
	char err[128];
	unsigned n = 0;

	root = VJSON_Parse(body, strlen(body), err, sizeof err);
	if (root == NULL)
		return (0);
	if (root->type == VJSON_ARRAY) {
		for (o = root->child; o != NULL; o = o->next) {
			if (o->type != VJSON_OBJECT)
				continue;
			m = VJSON_Member(o, key);
			if (m == NULL || m->type != VJSON_STRING ||
			    memchr(m->str, '\0', m->len) != NULL)
				continue;
			ADM_WordsAdd(w, m->str, m->len);
			n++;
		}
	}
	VJSON_Free(&root);
	return (n);
}

/* The command names: help -j, or the first word of each line of help. */
static void
adm_load_commands(struct adm_sess *as)
{
	const char *p, *e;
	char *body;

	body = adm_query(as->fd, "help -j");
	if (body == NULL || adm_json_names(body, "request", &as->cmds) == 0) {
		free(body);
		body = adm_query(as->fd, "help");
		for (p = body; p != NULL && *p != '\0'; p = e) {
			p += strspn(p, " \t\n");
			e = p + strcspn(p, " \t\n");
			if (e > p)
				ADM_WordsAdd(&as->cmds, p, (size_t)(e - p));
			e += strcspn(e, "\n");
		}
	}
	free(body);
	/* Ours: ends the session without asking the server. */
	ADM_WordsAdd(&as->cmds, "exit", 4);
	ADM_WordsSort(&as->cmds);
}

/* Which argument of which command takes what. */
enum adm_arg { ADM_ARG_CMD = 1, ADM_ARG_PARAM, ADM_ARG_VCL, ADM_ARG_STATE };

static const struct adm_argspec {
	const char	*cmd;
	unsigned	argn;		/* 0: any argument */
	enum adm_arg	what;
} adm_argspecs[] = {
	{ "help",		1, ADM_ARG_CMD },
	{ "param.show",		1, ADM_ARG_PARAM },
	{ "param.set",		1, ADM_ARG_PARAM },
	{ "param.reset",	1, ADM_ARG_PARAM },
	{ "vcl.use",		1, ADM_ARG_VCL },
	{ "vcl.discard",	0, ADM_ARG_VCL },
	{ "vcl.show",		1, ADM_ARG_VCL },
	{ "vcl.state",		1, ADM_ARG_VCL },
	{ "vcl.state",		2, ADM_ARG_STATE },
	{ "vcl.label",		1, ADM_ARG_VCL },	/* an existing label */
	{ "vcl.label",		2, ADM_ARG_VCL },
};

static void
adm_words_copy(struct adm_words *dst, const struct adm_words *src)
{
	unsigned u;

	for (u = 0; u < src->n; u++)
		ADM_WordsAdd(dst, src->w[u], strlen(src->w[u]));
}

/* The candidates for one kind of argument; 0 or -1. */
static int
adm_complete_arg(struct adm_sess *as, enum adm_arg what,
    struct adm_words *cands)
{
	char *body;

	switch (what) {
	case ADM_ARG_CMD:
		adm_words_copy(cands, &as->cmds);
		return (0);
	case ADM_ARG_PARAM:
		if (!as->have_params) {
			body = adm_query(as->fd, "param.show -j");
			as->have_params = body != NULL &&
			    adm_json_names(body, "name", &as->params) > 0;
			free(body);
		}
		adm_words_copy(cands, &as->params);
		return (0);
	case ADM_ARG_VCL:
		/* Asked each time: VCLs come and go. */
		body = adm_query(as->fd, "vcl.list -j");
		if (body == NULL)
			return (-1);
		(void)adm_json_names(body, "name", cands);
		free(body);
		return (0);
	case ADM_ARG_STATE:
		ADM_WordsAdd(cands, "auto", 4);
		ADM_WordsAdd(cands, "cold", 4);
		ADM_WordsAdd(cands, "warm", 4);
		return (0);
	default:
		WRONG("adm_arg");
	}
}

static int
adm_complete(void *priv, const struct adm_line *l, size_t *wstart,
    struct adm_words *cands)
{
	const struct adm_argspec *sp;
	struct adm_sess *as;
	char cmd[64];
	unsigned argn, u;

	CAST_OBJ_NOTNULL(as, priv, ADM_SESS_MAGIC);
	if (ADM_LineContext(l, wstart, &argn, cmd, sizeof cmd) != 0)
		return (-1);
	if (argn == 0)
		return (adm_complete_arg(as, ADM_ARG_CMD, cands));
	for (u = 0; u < sizeof adm_argspecs / sizeof *adm_argspecs; u++) {
		sp = &adm_argspecs[u];
		if (!strcmp(sp->cmd, cmd) && (sp->argn == 0 ||
		    sp->argn == argn))
			return (adm_complete_arg(as, sp->what, cands));
	}
	return (-1);
}

/* ~/.veneeradm_history (malloc'ed), or NULL: history in memory only. */
static char *
adm_hist_path(void)
{
	const char *home;
	char *p;

	home = getenv("HOME");
	if (home == NULL || *home == '\0')
		return (NULL);
	if (asprintf(&p, "%s/.veneeradm_history", home) < 0)
		return (NULL);
	return (p);
}

/* The line is a word alone (blanks around it allowed). */
static int
adm_is_word(const char *line, const char *word)
{
	size_t l = strlen(word);

	line += strspn(line, " \t");
	return (!strncmp(line, word, l) && line[l + strspn(line + l, " \t")] ==
	    '\0');
}

/*
 * The server said something without being asked, or closed: 1 if the
 * session is over.
 */
static int
adm_peer(int fd)
{

	if (adm_closed(fd)) {
		fprintf(stderr, "veneeradm: the CLI closed the connection\n");
		return (1);
	}
	(void)adm_answer(fd);
	return (0);
}

/*
 * How the session goes on: ADM_CLOSED when the server answered 500 (it
 * closes, as it does after quit), ADM_LOST when it closed unasked.
 */
enum adm_next { ADM_GO_ON = 0, ADM_END, ADM_CLOSED, ADM_LOST };

static enum adm_next
adm_sess_line(struct adm_sess *as, const char *line)
{
	const char *p = line + strspn(line, " \t");

	CHECK_OBJ(as, ADM_SESS_MAGIC);
	if (ADM_HistAdd(&as->hist, line) && as->hist_path != NULL &&
	    ADM_HistSave(&as->hist, as->hist_path) != 0) {
		/* History is a convenience: memory only from now on. */
		free(as->hist_path);
		as->hist_path = NULL;
	}
	if (as->tok != NULL) {
		/* Inside a document: the answer comes at its end. */
		if (CLI_WriteRequest(as->fd, line) != 0)
			adm_die("the CLI closed the connection");
		if (!strcmp(line, as->tok)) {
			free(as->tok);
			as->tok = NULL;
			(void)adm_answer(as->fd);
		}
		return (ADM_GO_ON);
	}
	if (*p == '\0')
		return (ADM_GO_ON);
	if (adm_is_word(p, "exit") || adm_is_word(p, "quit"))
		return (ADM_END);
	if ((as->tok = adm_heredoc(line)) != NULL) {
		if (CLI_WriteRequest(as->fd, line) != 0)
			adm_die("the CLI closed the connection");
		return (ADM_GO_ON);
	}
	return (adm_ask(as->fd, line) == CLIS_CLOSE ? ADM_CLOSED : ADM_GO_ON);
}

/*
 * The session on a terminal.  0 when the user ends it (quit, exit, ^D),
 * 2 when the server closes the connection.
 */
static int
adm_interactive(int fd, const char *banner)
{
	struct adm_sess as;
	struct adm_tty *t;
	enum adm_next next = ADM_GO_ON;
	enum adm_read r;
	unsigned status;
	char *line;

	INIT_OBJ(&as, ADM_SESS_MAGIC);
	as.fd = fd;
	ADM_WordsInit(&as.cmds);
	ADM_WordsInit(&as.params);
	adm_load_commands(&as);
	ADM_HistInit(&as.hist, ADM_HIST_MAX);
	as.hist_path = adm_hist_path();
	if (as.hist_path != NULL && ADM_HistLoad(&as.hist, as.hist_path) != 0) {
		free(as.hist_path);
		as.hist_path = NULL;
	}
	t = ADM_TtyNew(STDIN_FILENO, &as.hist, adm_complete, &as);
	if (t == NULL)
		adm_die("cannot set up the terminal: %s", strerror(errno));
	adm_show_status = 1;
	if (banner != NULL && *banner != '\0')
		printf("%s%s", banner,
		    banner[strlen(banner) - 1] == '\n' ? "\n" : "\n\n");
	while (next == ADM_GO_ON) {
		(void)fflush(stdout);
		r = ADM_TtyRead(t, as.tok != NULL ? "> " : "veneer> ", fd,
		    &line);
		if (r == ADM_READ_PEER) {
			if (adm_peer(fd))
				next = ADM_LOST;
		} else if (r == ADM_READ_LINE) {
			next = adm_sess_line(&as, line);
			free(line);
		} else {
			next = ADM_END;
		}
	}
	ADM_TtyFree(&t);
	/* Say goodbye, as quit would; the answer does not matter. */
	if (next == ADM_END && as.tok == NULL &&
	    CLI_WriteRequest(fd, "quit") == 0 &&
	    CLI_ReadResult(fd, &status, &line, adm_timeout) == 0)
		free(line);
	free(as.tok);
	free(as.hist_path);
	ADM_HistFini(&as.hist);
	ADM_WordsFini(&as.cmds);
	ADM_WordsFini(&as.params);
	return (next == ADM_LOST ? 2 : 0);
}

int
main(int argc, char **argv)
{
	const char *n_arg = NULL, *t_arg = NULL, *s_arg = NULL;
	char *t_text = NULL, *s_text = NULL, *line = NULL, *body, *end;
	char *banner;
	struct vapi *vd;
	unsigned status;
	size_t len = 0;
	int o, fd, i;

	/* A closed connection is an error to report, not a signal. */
	(void)signal(SIGPIPE, SIG_IGN);
	/* "+": options end at the command (vcl.show -v is its own). */
	while ((o = getopt(argc, argv, "+hn:S:T:t:")) != -1) {
		switch (o) {
		case 'h': adm_usage(stdout); exit(0);
		case 'n': n_arg = optarg; break;
		case 'S': s_arg = optarg; break;
		case 'T': t_arg = optarg; break;
		case 't':
			adm_timeout = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || adm_timeout <= 0)
				adm_die("-t %s: expected seconds", optarg);
			break;
		default: adm_usage(stderr); exit(2);
		}
	}
	if (n_arg != NULL && t_arg != NULL)
		adm_die("-n and -T cannot be used together");
	if (t_arg != NULL) {
		fd = adm_connect_arg(t_arg);
		if (fd < 0)
			adm_die("cannot connect to %s: %s", t_arg,
			    strerror(errno));
	} else {
		vd = VAPI_New();
		if (vd == NULL || VAPI_SetWorkdir(vd, n_arg) != 0 ||
		    VAPI_Attach(vd, adm_timeout) != 0)
			adm_die("%s", vd != NULL ? VAPI_Error(vd) :
			    "out of memory");
		t_text = adm_arg_seg(vd, "-T");
		s_text = adm_arg_seg(vd, "-S");
		VAPI_Free(&vd);
		if (t_text == NULL)
			adm_die("the veneerd in %s has no CLI address (-T none?)",
			    n_arg != NULL ? n_arg : "the default workdir");
		fd = adm_connect_lines(t_text);
		if (fd < 0)
			adm_die("cannot connect to the CLI at %s", t_text);
		if (s_arg == NULL)
			s_arg = s_text;
	}
	if (CLI_ReadResult(fd, &status, &body, adm_timeout) != 0)
		adm_die("no banner from the CLI within %.0f s", adm_timeout);
	if (status == CLIS_AUTH) {
		banner = adm_auth(fd, body, s_arg);
		free(body);
	} else if (status != CLIS_OK) {
		adm_die("the CLI refused the connection (status %u): %s",
		    status, body);
	} else {
		banner = body;
	}
	if (optind == argc && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		i = adm_interactive(fd, banner);
	} else if (optind == argc) {
		i = adm_lines(fd);
	} else {
		/*
		 * One argument with blanks is a whole command line, as
		 * varnishadm "ban req.url ~ /x" is written in many scripts;
		 * several are words, quoted as needed ("a b" stays one).
		 */
		if (argc - optind == 1 && strpbrk(argv[optind], " \t") != NULL) {
			line = strdup(argv[optind]);
			if (line == NULL)
				adm_die("out of memory");
		} else {
			for (i = optind; i < argc; i++)
				adm_quote(&line, &len, argv[i]);
		}
		status = adm_ask(fd, line);
		i = status != CLIS_OK;
		if (i)
			fprintf(stderr, "Command failed with error code %u\n",
			    status);
		free(line);
	}
	(void)close(fd);
	free(banner);
	free(t_text);
	free(s_text);
	return (i);
}
