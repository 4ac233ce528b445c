/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * mgt_vcl.c -- the manager's side of VCL: compile the boot VCL (-f, or
 * the one -b stands for) before anything starts, so a broken file stops
 * veneerd with the compiler's message and exit status 2; build the C
 * into a shared object with cc_command in a directory of the workdir,
 * beside the headers it includes; hand its path to the child.
 * Manager thread only.
 */

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ev.h>

#include "common/cli.h"
#include "common/param.h"
#include "common/tim.h"
#include "common/vas.h"
#include "mgt/mgt.h"
#include "mgt/mgt_cli.h"
#include "vcc/vcc.h"

/* vcl/vcl_hdrs.c, generated from include/ by tools/embed.c */
struct embed_file {
	const char *name;
	const char *text;
};
extern const struct embed_file VCL_hdrs[];

static char *mgt_vcl_c;			/* the boot VCL's C */
static char *mgt_vcl_boot_src;		/* and its text, for vcl.show */
static char mgt_vcl_boot_from[256];
static char mgt_vcl_name[] = "boot";

static char *mgt_vcl_slurp(const char *path);

/* The compiler's options, from the parameters as they are now. */
static void
mgt_vcl_opts(struct vcc_opts *opts)
{

	memset(opts, 0, sizeof *opts);
	opts->vcl_path = cache_param->vcl_path.s;
	opts->err_unref = cache_param->vcc_err_unref;
	opts->allow_inline_c = cache_param->vcc_allow_inline_c;
	opts->optimize = cache_param->vcc_optimize;
	opts->safe_path = !cache_param->vcc_unsafe_path;
}

/* A backend declaration for -b host:port; exits on a bad argument. */
static char *
mgt_vcl_b_source(const char *b_arg)
{
	struct backend_arg ba;
	const char *p;
	char *src;

	if (*b_arg == '/') {
		/* A Unix domain socket backend, as varnishd's -b takes. */
		for (p = b_arg; *p != '\0'; p++)
			if (*p == '"' || *p == '\\' ||
			    (unsigned char)*p < 0x20)
				MGT_Usage("-b %s: bad character in the path",
				    b_arg);
		if (asprintf(&src, "vcl 4.1;\n\nbackend default {\n"
		    "\t.path = \"%s\";\n}\n", b_arg) < 0)
			MGT_Fatal("out of memory");
		return (src);
	}
	MGT_BackendArg(b_arg, &ba);
	for (p = ba.host; *p != '\0'; p++)
		if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x21 ||
		    (unsigned char)*p > 0x7e)
			MGT_Usage("-b %s: bad character in the host name",
			    b_arg);
	for (p = ba.port; *p != '\0'; p++)
		if (*p < '0' || *p > '9')
			MGT_Usage("-b %s: the port must be a number", b_arg);
	if (asprintf(&src,
	    "vcl 4.1;\n"
	    "\n"
	    "backend default {\n"
	    "\t.host = \"%s\";\n"
	    "\t.port = \"%s\";\n"
	    "}\n", ba.host, ba.port) < 0)
		MGT_Fatal("out of memory");
	return (src);
}

/*
 * -f's file: as given when it is there or the name is absolute, else
 * the first directory of vcl_path that has it.
 */
static const char *
mgt_vcl_find(const char *f_arg, char *buf, size_t len)
{
	const char *p, *e;

	if (f_arg[0] == '/' || access(f_arg, F_OK) == 0)
		return (f_arg);
	for (p = cache_param->vcl_path.s; *p != '\0'; p = e) {
		e = strchr(p, ':');
		if (e == NULL)
			e = p + strlen(p);
		if (e > p) {
			(void)snprintf(buf, len, "%.*s/%s", (int)(e - p), p,
			    f_arg);
			if (access(buf, F_OK) == 0)
				return (buf);
		}
		if (*e == ':')
			e++;
	}
	return (f_arg);		/* the compiler says it is not there */
}

void
MGT_VclCompile(const char *f_arg, const char *b_arg, int print_c)
{
	struct vcc_opts opts;
	char *src = NULL, *c = NULL, *msg = NULL, path[1024];
	int i;

	mgt_vcl_opts(&opts);
	if (b_arg != NULL)
		src = mgt_vcl_b_source(b_arg);
	else
		f_arg = mgt_vcl_find(f_arg, path, sizeof path);
	if (src == NULL)
		src = mgt_vcl_slurp(f_arg);
	i = VCC_Compile(&opts, b_arg != NULL ? "<-b>" : f_arg, src, &c,
	    &msg);
	(void)snprintf(mgt_vcl_boot_from, sizeof mgt_vcl_boot_from, "%s",
	    b_arg != NULL ? "<-b>" : f_arg);
	mgt_vcl_boot_src = src;
	if (msg != NULL && *msg != '\0')
		(void)fputs(msg, stderr);
	free(msg);
	if (i != 0) {
		(void)fprintf(stderr, "VCL compilation failed\n");
		exit(2);
	}
	if (print_c) {
		(void)fputs(c, stdout);
		free(c);
		exit(0);
	}
	mgt_vcl_c = c;
}

static int
mgt_vcl_write(const char *dir, const char *name, const char *text)
{
	char path[1024];
	size_t len = strlen(text);
	ssize_t n;
	int fd;

	(void)snprintf(path, sizeof path, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return (-1);
	n = write(fd, text, len);
	if (close(fd) != 0 || n < 0 || (size_t)n != len)
		return (-1);
	return (0);
}

/* Remove a VCL's build directory and what is in it (no subdirs). */
static void
mgt_vcl_rmdir(const char *dir)
{
	char path[1400];
	struct dirent *de;
	DIR *d;

	d = opendir(dir);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) <
		    (int)sizeof path)
			(void)unlink(path);
	}
	(void)closedir(d);
	(void)rmdir(dir);
}

/* cc_command with %s, %o and %% expanded; NULL if too long. */
static char *
mgt_vcl_cc_cmd(const char *tmpl, const char *src, const char *obj)
{
	char buf[4096];
	const char *p, *add;
	size_t len = 0, l;

	for (p = tmpl; *p != '\0'; p++) {
		if (*p == '%' && (p[1] == 's' || p[1] == 'o' || p[1] == '%')) {
			p++;
			add = *p == 's' ? src : *p == 'o' ? obj : "%";
		} else {
			buf[len] = *p;
			if (++len >= sizeof buf)
				return (NULL);
			continue;
		}
		l = strlen(add);
		if (len + l >= sizeof buf)
			return (NULL);
		memcpy(buf + len, add, l);
		len += l;
	}
	buf[len] = '\0';
	return (strdup(buf));
}

/* Run cc_command in dir; its output goes to dir/cc.log.  0 or -1. */
static int
mgt_vcl_cc(const char *dir, const char *cmd)
{
	char log[1100];
	pid_t pid;
	int fd, status;

	(void)snprintf(log, sizeof log, "%s/cc.log", dir);
	pid = fork();
	if (pid < 0)
		return (-1);
	if (pid == 0) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || chdir(dir) != 0)
			_exit(126);
		(void)dup2(fd, STDOUT_FILENO);
		(void)dup2(fd, STDERR_FILENO);
		(void)close(fd);
		(void)execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return (-1);
	return (WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1);
}

/*
 * Build C into DIR = WORKDIR/vcl_NAME.SEQ/vgc.so, readable by the child.
 * 0 with the .so's path in so; -1 with what went wrong (cc's own words
 * included) in *errp (malloc'ed).  A failed build leaves nothing.
 */
static int
mgt_vcl_build(const char *workdir, const char *name, const char *c,
    char *dir, size_t dirlen, char *so, size_t solen, char **errp)
{
	static unsigned seq;
	char src[1100], log[1100], *cmd, *out;
	const struct embed_file *ef;
	struct stat st;
	size_t n;
	FILE *f;

	*errp = NULL;
	(void)snprintf(dir, dirlen, "%s/vcl_%s.%ld.%u", workdir, name,
	    (long)getpid(), seq++);
	mgt_vcl_rmdir(dir);
	if (mkdir(dir, 0755) != 0) {
		(void)asprintf(errp, "cannot create %s: %s", dir,
		    strerror(errno));
		return (-1);
	}
	for (ef = VCL_hdrs; ef->name != NULL; ef++)
		if (mgt_vcl_write(dir, ef->name, ef->text) != 0)
			break;
	if (ef->name != NULL || mgt_vcl_write(dir, "vgc.c", c) != 0) {
		(void)asprintf(errp, "cannot write in %s: %s", dir,
		    strerror(errno));
		mgt_vcl_rmdir(dir);
		return (-1);
	}
	(void)snprintf(src, sizeof src, "%s/vgc.c", dir);
	(void)snprintf(so, solen, "%s/vgc.so", dir);
	cmd = mgt_vcl_cc_cmd(cache_param->cc_command.s, src, so);
	if (cmd == NULL) {
		*errp = strdup("cc_command is too long once expanded");
		mgt_vcl_rmdir(dir);
		return (-1);
	}
	if (mgt_vcl_cc(dir, cmd) != 0 || stat(so, &st) != 0) {
		(void)snprintf(log, sizeof log, "%s/cc.log", dir);
		out = calloc(1, 8192);
		f = fopen(log, "r");
		n = 0;
		if (out != NULL && f != NULL)
			n = fread(out, 1, 8191, f);
		if (f != NULL)
			(void)fclose(f);
		(void)asprintf(errp, "Building the compiled VCL failed.\n"
		    "Command: %s\n%.*s", cmd, (int)n, out != NULL ? out : "");
		free(out);
		free(cmd);
		mgt_vcl_rmdir(dir);
		return (-1);
	}
	free(cmd);
	/* The child may run as another user (-j): it must read these. */
	if (chmod(dir, 0755) != 0 || chmod(so, 0644) != 0) {
		(void)asprintf(errp, "cannot make %s readable: %s", so,
		    strerror(errno));
		mgt_vcl_rmdir(dir);
		return (-1);
	}
	return (0);
}

/*--------------------------------------------------------------------
 * The loaded VCLs and labels, as the manager knows them: what a new
 * child is given, what vcl.list and vcl.deps show.  A label is an
 * entry whose target is the VCL it points at (never another label); a
 * VCL whose return (vcl(...)) names labels depends on them.  Varnish's
 * rules: a labelled VCL, or a label a VCL uses, cannot be discarded
 * (unless what depends on it goes in the same vcl.discard).
 */

#define MGT_VCL_MAXDEPS		64		/* = VCC_MAX_LABELS */
#define MGT_VCL_MAXLABELS	256		/* offered to the compiler */

struct mgt_vcl {
	char			name[64];
	char			dir[1100];
	char			so[1200];
	char			*source;	/* the VCL text, for vcl.show */
	char			from[256];	/* file, or <vcl.inline> */
	const char		*state;		/* auto|cold|warm|label */
	unsigned		warm;		/* temperature, as the child has it */
	vtim_mono		go_cold;	/* auto: cold after cooldown; 0: no */
	struct mgt_vcl		*target;	/* a label's VCL; NULL: a VCL */
	unsigned		nlabels;	/* labels pointing at this VCL */
	unsigned		nrefs;		/* a label: VCLs using it */
	struct mgt_vcl		*deps[MGT_VCL_MAXDEPS];	/* labels used */
	unsigned		ndeps;
	unsigned		is_boot;	/* -f's or -b's: the child has it */
	struct mgt_vcl		*next;
};

static struct mgt_vcl *mgt_vcls;		/* oldest first */
static struct mgt_vcl *mgt_vcl_active;
static const char *mgt_vcl_workdir;
static ev_timer mgt_vcl_cool_w;

static const char * const mgt_vcl_states[] = { "auto", "cold", "warm" };

static struct mgt_vcl *
mgt_vcl_find_name(const char *name)
{
	struct mgt_vcl *mv;

	for (mv = mgt_vcls; mv != NULL; mv = mv->next)
		if (!strcmp(mv->name, name))
			return (mv);
	return (NULL);
}

static void
mgt_vcl_append(struct mgt_vcl *mv)
{
	struct mgt_vcl **pp;

	for (pp = &mgt_vcls; *pp != NULL; pp = &(*pp)->next)
		continue;
	mv->next = NULL;
	*pp = mv;
}

static void
mgt_vcl_free(struct mgt_vcl *mv)
{

	if (mv->target == NULL)
		mgt_vcl_rmdir(mv->dir);
	free(mv->source);
	free(mv);
}

/* The text of a file (malloc'ed), or NULL. */
static char *
mgt_vcl_slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	f = fopen(path, "r");
	if (f == NULL)
		return (NULL);
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	(void)fclose(f);
	return (buf);
}

/* The build directories a veneerd that did not stop cleanly left. */
static void
mgt_vcl_clean(const char *workdir)
{
	char path[1400];
	struct dirent *de;
	DIR *d;

	d = opendir(workdir);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "vcl_", 4))
			continue;
		if (snprintf(path, sizeof path, "%s/%s", workdir, de->d_name) <
		    (int)sizeof path)
			mgt_vcl_rmdir(path);
	}
	(void)closedir(d);
}

/*--------------------------------------------------------------------
 * Temperature.  A VCL in state auto that nothing needs (not active, not
 * labelled, using no label) goes cold vcl_cooldown seconds after it was
 * last needed; vcl.use and vcl.label warm it again.  Cold and warm mean
 * nothing more yet: backend probes come with issue 15.
 */

static void mgt_vcl_cool_cb(struct ev_loop *, ev_timer *, int);

/* Start or stop mv's countdown; the timer runs while one counts. */
static void
mgt_vcl_cooldown(struct mgt_vcl *mv, vtim_mono now)
{

	if (mv == mgt_vcl_active || mv->target != NULL ||
	    strcmp(mv->state, "auto") || !mv->warm || mv->nlabels > 0 ||
	    mv->ndeps > 0)
		mv->go_cold = 0;
	else
		mv->go_cold = now;
	if (mv->go_cold != 0 && !ev_is_active(&mgt_vcl_cool_w)) {
		ev_timer_init(&mgt_vcl_cool_w, mgt_vcl_cool_cb, 1, 1);
		ev_timer_start(EV_DEFAULT_UC, &mgt_vcl_cool_w);
	}
}

/* Tell the child a VCL's state and temperature; 0 or the child's no. */
static unsigned
mgt_vcl_tell(struct mgt_vcl *mv, unsigned warm, char **bodyp)
{
	char cmd[256];
	unsigned st;

	*bodyp = NULL;
	if (MGT_ChildRunning()) {
		(void)snprintf(cmd, sizeof cmd, "vcl.state \"%s\" %s %s",
		    mv->name, mv->state, warm ? "warm" : "cold");
		st = MGT_ChildAsk(cmd, bodyp);
		if (st != CLIS_OK)
			return (st);
		free(*bodyp);
		*bodyp = NULL;
	}
	mv->warm = warm;
	return (CLIS_OK);
}

static void
mgt_vcl_cool_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct mgt_vcl *mv;
	vtim_mono now = TIM_mono();
	char *body;

	(void)loop;
	(void)w;
	(void)revents;
	for (mv = mgt_vcls; mv != NULL; mv = mv->next)
		if (mv->go_cold != 0)
			break;
	if (mv == NULL)
		ev_timer_stop(EV_DEFAULT_UC, &mgt_vcl_cool_w);
	for (mv = mgt_vcls; mv != NULL; mv = mv->next) {
		if (mv->go_cold == 0 ||
		    now - mv->go_cold < cache_param->vcl_cooldown)
			continue;
		mv->go_cold = 0;
		if (mgt_vcl_tell(mv, 0, &body) != CLIS_OK)
			MGT_Log(LOG_ERR, "VCL %s could not go cold: %s",
			    mv->name, body != NULL ? body : "no answer");
		free(body);
	}
}

/* A VCL about to be used or labelled: warm unless it is cold. */
static int
mgt_vcl_need_warm(struct mcli_req *r, struct mgt_vcl *mv)
{
	char *body;
	unsigned st;

	if (mv->target != NULL || mv->warm)
		return (0);
	if (!strcmp(mv->state, "cold")) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "VCL '%s' is cold - set to auto or "
		    "warm first", mv->name);
		return (-1);
	}
	st = mgt_vcl_tell(mv, 1, &body);
	if (st != CLIS_OK) {
		r->status = st;
		MCLI_BufPrintf(&r->body, "%s", body != NULL ? body :
		    "no answer from the child");
		free(body);
		return (-1);
	}
	mgt_vcl_cooldown(mv, TIM_mono());
	return (0);
}

/*--------------------------------------------------------------------*/

void
MGT_VclBuild(struct child_args *ca)
{
	struct mgt_vcl *mv;
	char *err;

	mgt_vcl_workdir = ca->workdir;
	mgt_vcl_clean(ca->workdir);
	if (mgt_vcl_c == NULL)
		return;
	mv = calloc(1, sizeof *mv);
	if (mv == NULL)
		MGT_Fatal("out of memory");
	(void)snprintf(mv->name, sizeof mv->name, "%s", mgt_vcl_name);
	if (mgt_vcl_build(ca->workdir, mgt_vcl_name, mgt_vcl_c, mv->dir,
	    sizeof mv->dir, mv->so, sizeof mv->so, &err) != 0) {
		(void)fprintf(stderr, "%s\n", err);
		exit(2);
	}
	mv->source = mgt_vcl_boot_src;
	mgt_vcl_boot_src = NULL;
	(void)snprintf(mv->from, sizeof mv->from, "%s", mgt_vcl_boot_from);
	mv->state = "auto";
	mv->warm = 1;
	mv->is_boot = 1;
	mgt_vcls = mv;
	mgt_vcl_active = mv;
	(void)snprintf(ca->vcl_so, sizeof ca->vcl_so, "%s", mv->so);
	(void)snprintf(ca->vcl_name, sizeof ca->vcl_name, "%s",
	    mgt_vcl_name);
	free(mgt_vcl_c);
	mgt_vcl_c = NULL;
}

void
MGT_VclFini(void)
{
	struct mgt_vcl *mv;

	if (ev_is_active(&mgt_vcl_cool_w))
		ev_timer_stop(EV_DEFAULT_UC, &mgt_vcl_cool_w);
	while ((mv = mgt_vcls) != NULL) {
		mgt_vcls = mv->next;
		mgt_vcl_free(mv);
	}
	mgt_vcl_active = NULL;
}

/* Whether the child has a VCL to start with. */
int
MGT_VclAvailable(void)
{

	return (mgt_vcl_active != NULL);
}

/* What loads mv (a VCL or a label) in a new child. */
static void
mgt_vcl_prep_one(const struct mgt_vcl *mv, const struct mgt_vcl *boot)
{
	char cmd[1400], *body;

	if (mv == boot)
		(void)snprintf(cmd, sizeof cmd, "vcl.loadboot");
	else if (mv->target != NULL)
		(void)snprintf(cmd, sizeof cmd, "vcl.label \"%s\" \"%s\"",
		    mv->name, mv->target->name);
	else
		(void)snprintf(cmd, sizeof cmd, "vcl.load \"%s\" \"%s\" %s %s",
		    mv->name, mv->so, mv->state, mv->warm ? "warm" : "cold");
	if (MGT_ChildAsk(cmd, &body) != CLIS_OK)
		MGT_Log(LOG_ERR, "Child could not load VCL %s: %s",
		    mv->name, body != NULL ? body : "no answer");
	free(body);
	/* The boot VCL loads as auto and warm: tell it what it is now. */
	if (mv == boot && (strcmp(mv->state, "auto") || !mv->warm)) {
		(void)snprintf(cmd, sizeof cmd, "vcl.state \"%s\" %s %s",
		    mv->name, mv->state, mv->warm ? "warm" : "cold");
		if (MGT_ChildAsk(cmd, &body) != CLIS_OK)
			MGT_Log(LOG_ERR, "Child could not set VCL %s %s: %s",
			    mv->name, mv->state, body != NULL ? body :
			    "no answer");
		free(body);
	}
}

/*
 * A new child: give it every VCL and label, each after what it needs
 * (a label after its VCL, a VCL after the labels it uses), the boot VCL
 * (opened by the child before it dropped privileges) included, and
 * make the active one active.  The command that starts it follows.
 */
const char *
MGT_VclChildPrep(void)
{
	struct mgt_vcl *mv, *boot = NULL, *done[256];
	char cmd[1400], *body;
	unsigned n = 0, u, k, progress;

	for (mv = mgt_vcls; mv != NULL; mv = mv->next)
		if (mv->is_boot)
			boot = mv;
	do {
		progress = 0;
		for (mv = mgt_vcls; mv != NULL && n < 256; mv = mv->next) {
			for (u = 0; u < n && done[u] != mv; u++)
				continue;
			if (u < n)
				continue;
			/* What mv needs must be there already. */
			for (k = 0; k < mv->ndeps; k++) {
				for (u = 0; u < n && done[u] != mv->deps[k];
				    u++)
					continue;
				if (u == n)
					break;
			}
			if (k < mv->ndeps)
				continue;
			if (mv->target != NULL) {
				for (u = 0; u < n && done[u] != mv->target;
				    u++)
					continue;
				if (u == n)
					continue;
			}
			mgt_vcl_prep_one(mv, boot);
			done[n++] = mv;
			progress = 1;
		}
	} while (progress);
	if (mgt_vcl_active != NULL) {
		(void)snprintf(cmd, sizeof cmd, "vcl.use \"%s\"",
		    mgt_vcl_active->name);
		if (MGT_ChildAsk(cmd, &body) != CLIS_OK)
			MGT_Log(LOG_ERR, "Child could not use VCL %s: %s",
			    mgt_vcl_active->name, body != NULL ? body :
			    "no answer");
		free(body);
	}
	return ("start noboot");
}

/*--------------------------------------------------------------------
 * The CLI's vcl.* commands
 */

/*
 * A name for a VCL or label, as varnishd takes them: a letter, then
 * letters, digits, '_' or '-' (a dot would read as vcl.NAME in
 * backend.list and VBE counter names); at most 63 characters.
 */
static int
mgt_vcl_name_ok(struct mcli_req *r, const char *name)
{
	const char *p;

	for (p = name; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (p > name && ((*p >= '0' && *p <= '9') || *p == '_' ||
		    *p == '-'))))
			break;
	if (*p == '\0' && p > name && p - name < 64)
		return (1);
	r->status = CLIS_PARAM;
	/* varnishd's words, then ours. */
	MCLI_BufPrintf(&r->body, "Illegal character in VCL name ");
	if (*p == '\0')
		MCLI_BufPrintf(&r->body, "(%s)", p == name ? "empty" :
		    "longer than 63");
	else if (*p > 0x20 && *p < 0x7f)
		MCLI_BufPrintf(&r->body, "('%c')", *p);
	else
		MCLI_BufPrintf(&r->body, "(0x%02x)", *p & 0xff);
	MCLI_BufPrintf(&r->body, ": a VCL name is a letter, then letters, "
	    "digits, '_' or '-'\n");
	return (0);
}

/* A VCL or label by name, or NULL with varnishd's 106 answer. */
static struct mgt_vcl *
mgt_vcl_need(struct mcli_req *r, const char *name)
{
	struct mgt_vcl *mv;

	mv = mgt_vcl_find_name(name);
	if (mv == NULL) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "No VCL named %s known\n", name);
	}
	return (mv);
}

/* auto|cold|warm as the table's string, or NULL with the 106 answer. */
static const char *
mgt_vcl_parse_state(struct mcli_req *r, const char *s)
{
	unsigned u;

	for (u = 0; u < sizeof mgt_vcl_states / sizeof *mgt_vcl_states; u++)
		if (!strcmp(s, mgt_vcl_states[u]))
			return (mgt_vcl_states[u]);
	r->status = CLIS_PARAM;
	MCLI_BufPrintf(&r->body, "State must be one of auto, cold or warm.");
	return (NULL);
}

/*
 * The labels' names for the compiler (NULL-terminated, in labels[],
 * their entries in which[]); how many.
 */
static unsigned
mgt_vcl_labels(const char **labels, struct mgt_vcl **which, unsigned max)
{
	struct mgt_vcl *mv;
	unsigned n = 0;

	for (mv = mgt_vcls; mv != NULL && n + 1 < max; mv = mv->next)
		if (mv->target != NULL) {
			which[n] = mv;
			labels[n++] = mv->name;
		}
	labels[n] = NULL;
	return (n);
}

/* Compile, build, give to the child; the answer in r. */
static void
mgt_vcl_load(struct mcli_req *r, const char *name, const char *file,
    char *text, const char *state_arg)
{
	struct vcc_opts opts;
	struct mgt_vcl *mv, *which[MGT_VCL_MAXLABELS];
	const char *labels[MGT_VCL_MAXLABELS + 1], *state = "auto";
	unsigned used[MGT_VCL_MAXLABELS + 1], st, nl, u;
	char *c = NULL, *msg = NULL, *err, *body, cmd[1400];
	char path[1024];

	if (!mgt_vcl_name_ok(r, name) || (state_arg != NULL &&
	    (state = mgt_vcl_parse_state(r, state_arg)) == NULL)) {
		free(text);
		return;
	}
	if (mgt_vcl_find_name(name) != NULL) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "Already a VCL named %s", name);
		free(text);
		return;
	}
	mgt_vcl_opts(&opts);
	nl = mgt_vcl_labels(labels, which, MGT_VCL_MAXLABELS + 1);
	memset(used, 0, sizeof used);
	opts.labels = labels;
	opts.label_used = used;
	if (text == NULL && opts.safe_path && strchr(file, '/') != NULL) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "VCL filename '%s' is unsafe: with "
		    "vcc_unsafe_path off a VCL file is named by its place in "
		    "vcl_path, without '/'", file);
		return;
	}
	if (text == NULL) {
		file = mgt_vcl_find(file, path, sizeof path);
		text = mgt_vcl_slurp(file);
		if (text == NULL) {
			r->status = CLIS_PARAM;
			MCLI_BufPrintf(&r->body, "Cannot read %s: %s", file,
			    strerror(errno));
			return;
		}
	}
	if (VCC_Compile(&opts, file, text, &c, &msg) != 0) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "%sVCL compilation failed",
		    msg != NULL ? msg : "");
		free(msg);
		free(text);
		return;
	}
	mv = calloc(1, sizeof *mv);
	if (mv == NULL)
		MGT_Fatal("out of memory");
	(void)snprintf(mv->name, sizeof mv->name, "%s", name);
	(void)snprintf(mv->from, sizeof mv->from, "%s", file);
	mv->source = text;
	mv->state = state;
	mv->warm = strcmp(state, "cold") != 0;
	if (mgt_vcl_build(mgt_vcl_workdir, name, c, mv->dir, sizeof mv->dir,
	    mv->so, sizeof mv->so, &err) != 0) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "%s", err != NULL ? err : "");
		free(err);
		free(c);
		free(msg);
		free(mv->source);
		free(mv);
		return;
	}
	free(c);
	if (MGT_ChildRunning()) {
		(void)snprintf(cmd, sizeof cmd, "vcl.load \"%s\" \"%s\" %s %s",
		    name, mv->so, mv->state, mv->warm ? "warm" : "cold");
		st = MGT_ChildAsk(cmd, &body);
		if (st != CLIS_OK) {
			r->status = CLIS_CANT;
			MCLI_BufPrintf(&r->body, "%s",
			    body != NULL ? body : "no answer from the child");
			free(body);
			free(msg);
			mgt_vcl_free(mv);
			return;
		}
		free(body);
	}
	/* Warnings, as the compiler gave them; then the verdict. */
	MCLI_BufPrintf(&r->body, "%sVCL compiled.", msg != NULL ? msg : "");
	free(msg);
	for (u = 0; u < nl && mv->ndeps < MGT_VCL_MAXDEPS; u++)
		if (used[u]) {
			mv->deps[mv->ndeps++] = which[u];
			which[u]->nrefs++;
			mgt_vcl_cooldown(which[u], TIM_mono());
		}
	mgt_vcl_append(mv);
	/* Started without one (-d, -f ''): the first VCL is the active one. */
	if (mgt_vcl_active == NULL && mv->warm)
		mgt_vcl_active = mv;
	mgt_vcl_cooldown(mv, TIM_mono());
	MGT_Log(LOG_NOTICE, "CLI: VCL %s loaded from %s", name, file);
}

static void
mgt_vcl_cmd_load(struct mcli_req *r, int ac, char * const *av)
{

	mgt_vcl_load(r, av[1], av[2], NULL, ac > 3 ? av[3] : NULL);
}

static void
mgt_vcl_cmd_inline(struct mcli_req *r, int ac, char * const *av)
{
	char *text;

	text = strdup(av[2]);
	if (text == NULL)
		MGT_Fatal("out of memory");
	mgt_vcl_load(r, av[1], "<vcl.inline>", text, ac > 3 ? av[3] : NULL);
}

static void
mgt_vcl_cmd_use(struct mcli_req *r, int ac, char * const *av)
{
	struct mgt_vcl *mv, *old;
	char cmd[256], *body;
	vtim_mono now;

	(void)ac;
	mv = mgt_vcl_find_name(av[1]);
	if (mv == NULL) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "No VCL named %s known.", av[1]);
		return;
	}
	if (mv == mgt_vcl_active || mgt_vcl_need_warm(r, mv) != 0)
		return;
	if (MGT_ChildRunning()) {
		(void)snprintf(cmd, sizeof cmd, "vcl.use \"%s\"", mv->name);
		if (MGT_ChildAsk(cmd, &body) != CLIS_OK) {
			r->status = CLIS_CANT;
			MCLI_BufPrintf(&r->body, "%s", body != NULL ? body :
			    "no answer from the child");
			free(body);
			return;
		}
		free(body);
	}
	old = mgt_vcl_active;
	mgt_vcl_active = mv;
	now = TIM_mono();
	mgt_vcl_cooldown(mv, now);
	if (old != NULL)
		mgt_vcl_cooldown(old, now);
	MCLI_BufPrintf(&r->body, "VCL '%s' now active", mv->name);
	MGT_Log(LOG_NOTICE, "CLI: VCL %s now active", mv->name);
}

/* Would vcl.discard of the marked ones leave something hanging? */
static int
mgt_vcl_discard_check(struct mcli_req *r, struct mgt_vcl **set,
    unsigned n)
{
	struct mgt_vcl *mv, *x;
	unsigned u, k, i, shown;

	for (u = 0; u < n; u++) {
		mv = set[u];
		shown = 0;
		for (x = mgt_vcls; x != NULL; x = x->next) {
			if (mv->target == NULL && x->target != mv)
				continue;
			if (mv->target != NULL) {
				for (k = 0; k < x->ndeps && x->deps[k] != mv;
				    k++)
					continue;
				if (k == x->ndeps)
					continue;
			}
			for (i = 0; i < n && set[i] != x; i++)
				continue;
			if (i < n)
				continue;	/* goes too */
			if (shown == 0) {
				r->status = CLIS_CANT;
				MCLI_BufPrintf(&r->body, mv->target == NULL ?
				    "Cannot discard labeled VCL program %s:\n" :
				    "Cannot discard VCL label %s, other VCLs "
				    "depend on it:\n", mv->name);
			}
			if (shown++ == 5) {
				MCLI_BufPrintf(&r->body, "\t[...]");
				break;
			}
			MCLI_BufPrintf(&r->body, "\t%s\n", x->name);
		}
		if (shown > 0)
			return (-1);
	}
	return (0);
}

/* Take mv off the list (the child first); what it held goes. */
static int
mgt_vcl_discard_one(struct mcli_req *r, struct mgt_vcl *mv)
{
	struct mgt_vcl **pp;
	char cmd[256], *body;
	vtim_mono now = TIM_mono();
	unsigned u;

	if (MGT_ChildRunning()) {
		(void)snprintf(cmd, sizeof cmd, "vcl.discard \"%s\"",
		    mv->name);
		if (MGT_ChildAsk(cmd, &body) != CLIS_OK) {
			r->status = CLIS_CANT;
			MCLI_BufPrintf(&r->body, "%s", body != NULL ?
			    body : "no answer from the child");
			free(body);
			return (-1);
		}
		free(body);
	}
	for (pp = &mgt_vcls; *pp != mv; pp = &(*pp)->next)
		assert(*pp != NULL);
	*pp = mv->next;
	for (u = 0; u < mv->ndeps; u++) {
		assert(mv->deps[u]->nrefs > 0);
		mv->deps[u]->nrefs--;
	}
	if (mv->target != NULL) {
		assert(mv->target->nlabels > 0);
		mv->target->nlabels--;
		mgt_vcl_cooldown(mv->target, now);
	}
	MGT_Log(LOG_NOTICE, "CLI: VCL %s discarded", mv->name);
	/* The child has it mapped; the file can go now. */
	mgt_vcl_free(mv);
	return (0);
}

static void
mgt_vcl_cmd_discard(struct mcli_req *r, int ac, char * const *av)
{
	struct mgt_vcl *mv, *set[256];
	unsigned n = 0, u, left, matched;
	int i;

	/* Check them all first: nothing goes unless all may. */
	for (i = 1; i < ac; i++) {
		/* A name, or a glob (as varnishd: fnmatch, no flags). */
		matched = 0;
		for (mv = mgt_vcls; mv != NULL; mv = mv->next) {
			if (fnmatch(av[i], mv->name, 0))
				continue;
			matched++;
			if (mv == mgt_vcl_active) {
				r->status = CLIS_CANT;
				MCLI_BufPrintf(&r->body, "Cannot discard "
				    "active VCL %s: vcl.use another first.",
				    mv->name);
				return;
			}
			for (u = 0; u < n && set[u] != mv; u++)
				continue;
			if (u == n && n < 256)
				set[n++] = mv;	/* named twice: once */
		}
		if (matched == 0) {
			r->status = CLIS_PARAM;
			MCLI_BufPrintf(&r->body, strpbrk(av[i], "*?[") ==
			    NULL ? "No VCL named %s known." :
			    "No VCL name matches %s", av[i]);
			return;
		}
	}
	if (mgt_vcl_discard_check(r, set, n) != 0)
		return;
	/* What depends on another goes first. */
	for (left = n; left > 0; ) {
		for (u = 0; u < n; u++) {
			mv = set[u];
			if (mv == NULL || mv->nlabels > 0 || mv->nrefs > 0)
				continue;
			if (mgt_vcl_discard_one(r, mv) != 0)
				return;
			set[u] = NULL;
			left--;
			break;
		}
		if (u == n)
			WRONG("vcl.discard: a dependency cycle");
	}
}

/* Requests still using each VCL, from the child's list; -1: unknown. */
static long
mgt_vcl_busy(const char *list, const char *name)
{
	const char *p, *sp;
	size_t l = strlen(name);

	if (list == NULL)
		return (-1);
	for (p = list; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		sp = strchr(p, ' ');
		if (sp == NULL)
			break;
		sp = strchr(sp + 1, ' ');
		if (sp != NULL && !strncmp(sp + 1, name, l) &&
		    (sp[1 + l] == '\n' || sp[1 + l] == '\0'))
			return (strtol(strchr(p, ' ') + 1, NULL, 10));
	}
	return (0);
}

static void
mgt_vcl_list_json(struct mcli_req *r, char * const *av, const char *list)
{
	const struct mgt_vcl *mv;
	long busy;

	MCLI_JsonHead(&r->body, av);
	for (mv = mgt_vcls; mv != NULL; mv = mv->next) {
		MCLI_BufPrintf(&r->body, ",\n  {\n    \"status\": \"%s\",\n"
		    "    \"state\": \"%s\",\n    \"temperature\": \"%s\",\n",
		    mv == mgt_vcl_active ? "active" : "available", mv->state,
		    mv->warm ? "warm" : "cold");
		busy = mgt_vcl_busy(list, mv->name);
		if (busy >= 0)
			MCLI_BufPrintf(&r->body, "    \"busy\": %ld,\n", busy);
		MCLI_BufPrintf(&r->body, "    \"name\": ");
		MCLI_JsonStr(&r->body, mv->name);
		if (mv->target != NULL) {
			MCLI_BufPrintf(&r->body, ",\n    \"label\": {\n"
			    "      \"name\": ");
			MCLI_JsonStr(&r->body, mv->target->name);
			if (mv->nrefs > 0)
				MCLI_BufPrintf(&r->body, ",\n      \"refs\": "
				    "%u", mv->nrefs);
			MCLI_BufPrintf(&r->body, "\n    }");
		} else if (mv->nlabels > 0) {
			MCLI_BufPrintf(&r->body, ",\n    \"labels\": %u",
			    mv->nlabels);
		}
		MCLI_BufPrintf(&r->body, "\n  }");
	}
	MCLI_BufPrintf(&r->body, "\n]\n");
}

static void
mgt_vcl_cmd_list(struct mcli_req *r, int ac, char * const *av)
{
	const struct mgt_vcl *mv;
	struct mcli_buf rows;
	char *list = NULL, busy[24];
	long b;

	if (MGT_ChildRunning() && MGT_ChildAsk("vcl.list", &list) != CLIS_OK) {
		free(list);
		list = NULL;
	}
	if (ac > 1 && !strcmp(av[1], "-j")) {
		mgt_vcl_list_json(r, av, list);
		free(list);
		return;
	}
	/* Oldest first, as loaded; laid out as varnishd does. */
	memset(&rows, 0, sizeof rows);
	for (mv = mgt_vcls; mv != NULL; mv = mv->next) {
		b = mgt_vcl_busy(list, mv->name);
		if (b >= 0)
			(void)snprintf(busy, sizeof busy, "%6ld", b);
		else
			(void)snprintf(busy, sizeof busy, "%6s", "-");
		MCLI_BufPrintf(&rows, "%s\t%s\t%s\t%s\t%s",
		    mv == mgt_vcl_active ? "active" : "available", mv->state,
		    mv->warm ? "warm" : "cold", busy, mv->name);
		if (mv->target != NULL) {
			MCLI_BufPrintf(&rows, "\t->\t%s", mv->target->name);
			if (mv->nrefs > 0)
				MCLI_BufPrintf(&rows, " (%u return(vcl)%s)",
				    mv->nrefs, mv->nrefs > 1 ? "'s" : "");
		} else if (mv->nlabels > 0) {
			MCLI_BufPrintf(&rows, "\t<-\t(%u label%s)",
			    mv->nlabels, mv->nlabels > 1 ? "s" : "");
		}
		MCLI_BufPrintf(&rows, "\n");
	}
	if (rows.p != NULL)
		MCLI_Table(&r->body, rows.p, 80);
	free(rows.p);
	free(list);
}

static void
mgt_vcl_cmd_show(struct mcli_req *r, int ac, char * const *av)
{
	const struct mgt_vcl *mv;
	const char *name = NULL;
	int i, verbose = 0;

	for (i = 1; i < ac; i++) {
		if (!strcmp(av[i], "-v"))
			verbose = 1;
		else
			name = av[i];
	}
	mv = name != NULL ? mgt_vcl_find_name(name) : mgt_vcl_active;
	if (mv == NULL) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "No VCL named %s known.",
		    name != NULL ? name : "(active)");
		return;
	}
	if (mv->target != NULL)
		mv = mv->target;	/* a label shows its VCL */
	if (verbose)
		MCLI_BufPrintf(&r->body, "// VCL.SHOW %s %s\n", mv->name,
		    mv->from);
	MCLI_BufPrintf(&r->body, "%s", mv->source != NULL ? mv->source : "");
}

/* Does VCL `from` reach label `lbl` through the labels it uses? */
static int
mgt_vcl_reaches(struct mcli_req *r, const struct mgt_vcl *from,
    const struct mgt_vcl *lbl, unsigned depth)
{
	unsigned u;

	if (depth > 64)
		return (0);
	for (u = 0; u < from->ndeps; u++) {
		if (from->deps[u] != lbl && !mgt_vcl_reaches(r,
		    from->deps[u]->target, lbl, depth + 1))
			continue;
		MCLI_BufPrintf(&r->body, "Vcl %s uses Label %s\n", from->name,
		    from->deps[u]->name);
		return (1);
	}
	return (0);
}

static void
mgt_vcl_cmd_label(struct mcli_req *r, int ac, char * const *av)
{
	struct mgt_vcl *lbl, *mv, *old;
	char cmd[256], *body;
	vtim_mono now;

	(void)ac;
	if (!mgt_vcl_name_ok(r, av[1]))
		return;
	lbl = mgt_vcl_find_name(av[1]);
	if (lbl != NULL && lbl->target == NULL) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "%s is not a label", lbl->name);
		return;
	}
	mv = mgt_vcl_need(r, av[2]);
	if (mv == NULL)
		return;
	if (mv->target != NULL) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "VCL labels cannot point to labels");
		return;
	}
	if (lbl != NULL && lbl->target != mv &&
	    mgt_vcl_reaches(r, mv, lbl, 0)) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "Pointing label %s at %s would "
		    "create a loop", lbl->name, mv->name);
		return;
	}
	if (mgt_vcl_need_warm(r, mv) != 0)
		return;
	if (MGT_ChildRunning()) {
		(void)snprintf(cmd, sizeof cmd, "vcl.label \"%s\" \"%s\"",
		    av[1], mv->name);
		if (MGT_ChildAsk(cmd, &body) != CLIS_OK) {
			r->status = CLIS_CANT;
			MCLI_BufPrintf(&r->body, "%s", body != NULL ? body :
			    "no answer from the child");
			free(body);
			return;
		}
		free(body);
	}
	if (lbl == NULL) {
		lbl = calloc(1, sizeof *lbl);
		if (lbl == NULL)
			MGT_Fatal("out of memory");
		(void)snprintf(lbl->name, sizeof lbl->name, "%s", av[1]);
		lbl->state = "label";
		lbl->warm = 1;
		mgt_vcl_append(lbl);
	}
	old = lbl->target;
	lbl->target = mv;
	mv->nlabels++;
	now = TIM_mono();
	mgt_vcl_cooldown(mv, now);
	if (old != NULL) {
		old->nlabels--;
		mgt_vcl_cooldown(old, now);
	}
	MGT_Log(LOG_NOTICE, "CLI: label %s now points at VCL %s", lbl->name,
	    mv->name);
}

static void
mgt_vcl_cmd_state(struct mcli_req *r, int ac, char * const *av)
{
	struct mgt_vcl *mv;
	const char *state, *old;
	unsigned warm, st;
	char *body;

	(void)ac;
	mv = mgt_vcl_need(r, av[1]);
	if (mv == NULL)
		return;
	if (mv->target != NULL) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "Labels are always warm");
		return;
	}
	state = mgt_vcl_parse_state(r, av[2]);
	if (state == NULL)
		return;
	if (!strcmp(state, "cold") && mv->nlabels > 0) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "A labeled VCL cannot be set cold");
		return;
	}
	if (!strcmp(state, "cold") && mv == mgt_vcl_active) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "Cannot set the active VCL cold.");
		return;
	}
	if (mv->state == state)
		return;
	/* auto keeps the temperature it has; cold and warm set it. */
	warm = mv == mgt_vcl_active ? 1 : !strcmp(state, "auto") ? mv->warm :
	    !strcmp(state, "warm");
	old = mv->state;
	mv->state = state;
	st = mgt_vcl_tell(mv, warm, &body);
	if (st != CLIS_OK) {
		mv->state = old;
		r->status = st;
		MCLI_BufPrintf(&r->body, "%s", body != NULL ? body :
		    "no answer from the child");
		free(body);
		return;
	}
	mgt_vcl_cooldown(mv, TIM_mono());
	MGT_Log(LOG_NOTICE, "CLI: VCL %s now %s", mv->name, state);
}

static void
mgt_vcl_cmd_deps(struct mcli_req *r, int ac, char * const *av)
{
	const struct mgt_vcl *mv;
	struct mcli_buf rows;
	unsigned u;

	if (ac > 1 && !strcmp(av[1], "-j")) {
		/* varnishd's own layout, and "-j" counts as version 1. */
		MCLI_JsonHead(&r->body, av);
		r->body.p[2] = '1';
		for (mv = mgt_vcls; mv != NULL; mv = mv->next) {
			MCLI_BufPrintf(&r->body, ",\n  {\n    \"name\": ");
			MCLI_JsonStr(&r->body, mv->name);
			MCLI_BufPrintf(&r->body, ",\n    \"deps\": [");
			if (mv->target != NULL) {
				MCLI_BufPrintf(&r->body, "\n      ");
				MCLI_JsonStr(&r->body, mv->target->name);
			}
			for (u = 0; u < mv->ndeps; u++) {
				MCLI_BufPrintf(&r->body, "%s\n      ",
				    u > 0 || mv->target != NULL ? "," : "");
				MCLI_JsonStr(&r->body, mv->deps[u]->name);
			}
			MCLI_BufPrintf(&r->body, "%s]\n  }",
			    mv->target != NULL || mv->ndeps > 0 ?
			    "\n    " : "");
		}
		MCLI_BufPrintf(&r->body, "\n]\n");
		return;
	}
	memset(&rows, 0, sizeof rows);
	for (mv = mgt_vcls; mv != NULL; mv = mv->next) {
		if (mv->target != NULL)
			MCLI_BufPrintf(&rows, "%s\t%s\n", mv->name,
			    mv->target->name);
		else if (mv->ndeps == 0)
			MCLI_BufPrintf(&rows, "%s\n", mv->name);
		for (u = 0; u < mv->ndeps; u++)
			MCLI_BufPrintf(&rows, "%s\t%s\n", mv->name,
			    mv->deps[u]->name);
	}
	if (rows.p != NULL)
		MCLI_Table(&r->body, rows.p, 80);
	free(rows.p);
}

/*--------------------------------------------------------------------
 * vcl.profile: the child's figures (PROF_Rows), costliest first.
 */

struct mgt_prof_row {
	uint64_t		ns;
	uint64_t		evals;
	const char		*f[7];		/* true kind file line col sub text */
};

static int
mgt_prof_cmp(const void *a, const void *b)
{
	const struct mgt_prof_row *x = a, *y = b;

	if (x->ns != y->ns)
		return (x->ns < y->ns ? 1 : -1);
	if (x->evals != y->evals)
		return (x->evals < y->evals ? 1 : -1);
	return (0);
}

/* The child's rows, split in place; how many (at most max). */
static unsigned
mgt_prof_parse(char *p, struct mgt_prof_row *rows, unsigned max)
{
	unsigned n = 0, k;
	char *e, *t;

	for (; p != NULL && *p != '\0' && n < max; p = e) {
		e = strchr(p, '\n');
		if (e != NULL)
			*e++ = '\0';
		rows[n].ns = strtoull(p, &t, 10);
		if (*t != '\t')
			continue;
		rows[n].evals = strtoull(t + 1, &t, 10);
		for (k = 0; k < 7 && *t == '\t'; k++) {
			*t++ = '\0';
			rows[n].f[k] = t;
			t += strcspn(t, "\t");
		}
		if (k == 7)
			n++;
	}
	return (n);
}

static void
mgt_prof_json(struct mcli_req *r, char * const *av, const char *vcl,
    const struct mgt_prof_row *rows, unsigned n)
{
	unsigned u;

	MCLI_JsonHead(&r->body, av);
	MCLI_BufPrintf(&r->body, ",\n  {\n    \"vcl\": ");
	MCLI_JsonStr(&r->body, vcl);
	MCLI_BufPrintf(&r->body, ",\n    \"points\": [");
	for (u = 0; u < n; u++) {
		MCLI_BufPrintf(&r->body, "%s\n      {\"ns\": %ju, \"evals\": "
		    "%ju, ", u > 0 ? "," : "", (uintmax_t)rows[u].ns,
		    (uintmax_t)rows[u].evals);
		if (strcmp(rows[u].f[0], "-"))
			MCLI_BufPrintf(&r->body, "\"true\": %s, ", rows[u].f[0]);
		MCLI_BufPrintf(&r->body, "\"kind\": \"%s\", \"file\": ",
		    rows[u].f[1]);
		MCLI_JsonStr(&r->body, rows[u].f[2]);
		MCLI_BufPrintf(&r->body, ", \"line\": %s, \"col\": %s, "
		    "\"sub\": ", rows[u].f[3], rows[u].f[4]);
		MCLI_JsonStr(&r->body, rows[u].f[5]);
		MCLI_BufPrintf(&r->body, ", \"text\": ");
		MCLI_JsonStr(&r->body, rows[u].f[6]);
		MCLI_BufPrintf(&r->body, "}");
	}
	MCLI_BufPrintf(&r->body, "\n    ]\n  }\n]\n");
}

/* "ns evals ns/eval true  file:line:col if (text) in sub" */
static void
mgt_prof_line(struct mcli_buf *b, const struct mgt_prof_row *row)
{
	int cond = !strcmp(row->f[1], "cond");

	MCLI_BufPrintf(b, "%14ju %10ju %10ju %10s  %s:%s:%s %s%s%s",
	    (uintmax_t)row->ns, (uintmax_t)row->evals,
	    (uintmax_t)(row->evals > 0 ? row->ns / row->evals : 0),
	    row->f[0], row->f[2], row->f[3], row->f[4], cond ? "if (" : "",
	    row->f[6], cond ? ")" : "");
	/* A method's text names it already. */
	if (strcmp(row->f[1], "method"))
		MCLI_BufPrintf(b, " in %s", row->f[5]);
	MCLI_BufPrintf(b, "\n");
}

static void
mgt_vcl_cmd_profile(struct mcli_req *r, int ac, char * const *av)
{
	struct mgt_prof_row *rows;
	const struct mgt_vcl *mv = mgt_vcl_active;
	char cmd[256], *body = NULL, *p;
	unsigned n, u, st;
	int j = ac > 1 && !strcmp(av[1], "-j");

	if (ac > 1 + j) {
		mv = mgt_vcl_need(r, av[1 + j]);
		if (mv == NULL)
			return;
	}
	if (!cache_param->vcl_profile) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "vcl_profile is off: nothing is "
		    "counted. 'param.set vcl_profile on', let traffic run, "
		    "then ask again");
		return;
	}
	if (!MGT_ChildRunning() || mv == NULL) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "Cache process not started: the "
		    "profile is counted there (see 'start')");
		return;
	}
	if (mv->target != NULL)
		mv = mv->target;
	(void)snprintf(cmd, sizeof cmd, "vcl.profile \"%s\"", mv->name);
	st = MGT_ChildAsk(cmd, &body);
	if (st != CLIS_OK || body == NULL) {
		r->status = st != CLIS_OK ? st : CLIS_COMMS;
		MCLI_BufPrintf(&r->body, "%s", body != NULL ? body :
		    "no answer from the child");
		free(body);
		return;
	}
	p = strchr(body, '\n');
	if (p != NULL)
		*p++ = '\0';
	rows = calloc(4096, sizeof *rows);
	if (rows == NULL)
		MGT_Fatal("out of memory");
	n = mgt_prof_parse(p, rows, 4096);
	qsort(rows, n, sizeof *rows, mgt_prof_cmp);
	if (j) {
		mgt_prof_json(r, av, body, rows, n);
	} else {
		MCLI_BufPrintf(&r->body, "VCL %s, costliest first (since "
		    "vcl_profile went on or the VCL loaded):\n%14s %10s "
		    "%10s %10s  %s\n", body, "ns", "evals", "ns/eval",
		    "true", "where");
		for (u = 0; u < n; u++)
			mgt_prof_line(&r->body, &rows[u]);
	}
	free(rows);
	free(body);
}

const struct mcli_cmd MGT_VclCmds[] = {
	{ "vcl.deps", "vcl.deps [-j]",
	    "List all loaded configuration and their dependencies: each "
	    "label with the VCL it points at, each VCL with the labels its "
	    "return (vcl(...)) names.", 0, 0, 1, mgt_vcl_cmd_deps },
	{ "vcl.discard", "vcl.discard <name_pattern>...",
	    "Unload the named configurations and labels (when possible; a "
	    "pattern as in the shell, vcl_* say, names all it matches): "
	    "not the active one, nor a VCL a label points at or a label a "
	    "VCL uses, unless those go in the same command; one still used "
	    "by requests goes when they end.",
	    1, -1, 0, mgt_vcl_cmd_discard },
	{ "vcl.inline", "vcl.inline <configname> <quoted_VCLstring> "
	    "[auto|cold|warm]",
	    "Compile and load the VCL data under the name provided "
	    "(usually a << document), in the state given (auto by "
	    "default).", 2, 3, 0, mgt_vcl_cmd_inline },
	{ "vcl.label", "vcl.label <label> <configname>",
	    "Apply label to configuration: point the label (made if new, "
	    "moved if not) at a VCL, never at another label. vcl.use of a "
	    "label, or return (vcl(<label>)) in vcl_recv, sends requests to "
	    "the VCL it points at now.", 2, 2, 0, mgt_vcl_cmd_label },
	{ "vcl.list", "vcl.list [-j]", "List all loaded configuration: "
	    "status, state, temperature, requests using each, name, and "
	    "for labels the VCL they point at.",
	    0, 0, 1, mgt_vcl_cmd_list },
	{ "vcl.load", "vcl.load <configname> <filename> [auto|cold|warm]",
	    "Compile and load the VCL file under the name provided, in the "
	    "state given (auto by default).",
	    2, 3, 0, mgt_vcl_cmd_load },
	{ "vcl.profile", "vcl.profile [-j] [<configname>]",
	    "Show the VCL profile (-p vcl_profile) of the named or active "
	    "configuration: for each method, condition and call its total "
	    "nanoseconds, evaluations, nanoseconds per evaluation and times "
	    "true, costliest first, with file:line:column and source.",
	    0, 1, 1, mgt_vcl_cmd_profile },
	{ "vcl.show", "vcl.show [-v] [<configname>]",
	    "Display the source code for the specified configuration.",
	    0, 2, 0, mgt_vcl_cmd_show },
	{ "vcl.state", "vcl.state <configname> [auto|cold|warm]",
	    "Force the state of the named configuration: warm, cold, or "
	    "auto (cold vcl_cooldown seconds after nothing needs it). A "
	    "cold VCL cannot be used or labelled. Until backend probes "
	    "exist (issue 15) the temperature changes nothing else.",
	    2, 2, 0, mgt_vcl_cmd_state },
	{ "vcl.use", "vcl.use <configname|label>",
	    "Switch to the named configuration immediately: new requests "
	    "use it, those in flight finish on theirs; the cache stays.",
	    1, 1, 0, mgt_vcl_cmd_use },
	{ NULL, NULL, NULL, 0, 0, 0, NULL }
};
