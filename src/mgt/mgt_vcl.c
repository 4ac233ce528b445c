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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/param.h"
#include "common/cli.h"
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
}

/* A backend declaration for -b host:port; exits on a bad argument. */
static char *
mgt_vcl_b_source(const char *b_arg)
{
	struct backend_arg ba;
	const char *p;
	char *src;

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
 * The loaded VCLs, as the manager knows them: what a new child is given,
 * what vcl.list shows.
 */

struct mgt_vcl {
	char			name[64];
	char			dir[1100];
	char			so[1200];
	char			*source;	/* the VCL text, for vcl.show */
	char			from[256];	/* file, or <vcl.inline> */
	struct mgt_vcl		*next;
};

static struct mgt_vcl *mgt_vcls;		/* newest first */
static struct mgt_vcl *mgt_vcl_active;
static const char *mgt_vcl_workdir;

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
mgt_vcl_free(struct mgt_vcl *mv)
{

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

void
MGT_VclBuild(struct child_args *ca)
{
	struct mgt_vcl *mv;
	char *err;

	mgt_vcl_workdir = ca->workdir;
	if (mgt_vcl_c == NULL)
		return;
	mgt_vcl_clean(ca->workdir);
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

	while ((mv = mgt_vcls) != NULL) {
		mgt_vcls = mv->next;
		mgt_vcl_free(mv);
	}
	mgt_vcl_active = NULL;
}

/*
 * A new child: give it every loaded VCL but the boot one (which it
 * opened before dropping privileges) and make the active one active.
 * The command that starts it: "start", or "start noboot".
 */
const char *
MGT_VclChildPrep(void)
{
	struct mgt_vcl *mv, *boot = NULL;
	char cmd[1400], *body;

	for (mv = mgt_vcls; mv != NULL; mv = mv->next) {
		if (!strcmp(mv->name, mgt_vcl_name) && mv->next == NULL) {
			boot = mv;
			continue;
		}
		(void)snprintf(cmd, sizeof cmd, "vcl.load \"%s\" \"%s\"",
		    mv->name, mv->so);
		if (MGT_ChildAsk(cmd, &body) != CLIS_OK)
			MGT_Log(LOG_ERR, "Child could not load VCL %s: %s",
			    mv->name, body != NULL ? body : "no answer");
		free(body);
	}
	if (mgt_vcl_active != NULL && mgt_vcl_active != boot) {
		(void)snprintf(cmd, sizeof cmd, "vcl.use \"%s\"",
		    mgt_vcl_active->name);
		if (MGT_ChildAsk(cmd, &body) != CLIS_OK)
			MGT_Log(LOG_ERR, "Child could not use VCL %s: %s",
			    mgt_vcl_active->name, body != NULL ? body :
			    "no answer");
		free(body);
	}
	return (boot != NULL ? "start" : "start noboot");
}

/*--------------------------------------------------------------------
 * The CLI's vcl.* commands
 */

static int
mgt_vcl_name_ok(struct mcli_req *r, const char *name)
{
	const char *p;

	if (*name == '\0' || strlen(name) >= 64 ||
	    !((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z')))
		goto bad;
	for (p = name; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
		    *p == '.'))
			goto bad;
	return (1);
bad:
	r->status = CLIS_PARAM;
	MCLI_BufPrintf(&r->body, "Illegal VCL name \"%s\": a letter, then "
	    "letters, digits, '_', '-' or '.' (at most 63)", name);
	return (0);
}

/* Compile, build, give to the child; the answer in r. */
static void
mgt_vcl_load(struct mcli_req *r, const char *name, const char *file,
    char *text)
{
	struct vcc_opts opts;
	struct mgt_vcl *mv;
	char *c = NULL, *msg = NULL, *err, *body, cmd[1400];
	char path[1024];
	unsigned st;

	if (!mgt_vcl_name_ok(r, name)) {
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
		(void)snprintf(cmd, sizeof cmd, "vcl.load \"%s\" \"%s\"",
		    name, mv->so);
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
	mv->next = mgt_vcls;
	mgt_vcls = mv;
	MGT_Log(LOG_NOTICE, "CLI: VCL %s loaded from %s", name, file);
}

static void
mgt_vcl_cmd_load(struct mcli_req *r, int ac, char * const *av)
{

	(void)ac;
	mgt_vcl_load(r, av[1], av[2], NULL);
}

static void
mgt_vcl_cmd_inline(struct mcli_req *r, int ac, char * const *av)
{
	char *text;

	(void)ac;
	text = strdup(av[2]);
	if (text == NULL)
		MGT_Fatal("out of memory");
	mgt_vcl_load(r, av[1], "<vcl.inline>", text);
}

static void
mgt_vcl_cmd_use(struct mcli_req *r, int ac, char * const *av)
{
	struct mgt_vcl *mv;
	char cmd[256], *body;

	(void)ac;
	mv = mgt_vcl_find_name(av[1]);
	if (mv == NULL) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "No VCL named %s known.", av[1]);
		return;
	}
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
	mgt_vcl_active = mv;
	MCLI_BufPrintf(&r->body, "VCL '%s' now active", mv->name);
	MGT_Log(LOG_NOTICE, "CLI: VCL %s now active", mv->name);
}

static void
mgt_vcl_cmd_discard(struct mcli_req *r, int ac, char * const *av)
{
	struct mgt_vcl *mv, **pp;
	char cmd[256], *body;
	int i;

	/* Check them all first: nothing goes unless all may. */
	for (i = 1; i < ac; i++) {
		mv = mgt_vcl_find_name(av[i]);
		if (mv == NULL) {
			r->status = CLIS_PARAM;
			MCLI_BufPrintf(&r->body, "No VCL named %s known.",
			    av[i]);
			return;
		}
		if (mv == mgt_vcl_active) {
			r->status = CLIS_CANT;
			MCLI_BufPrintf(&r->body, "Cannot discard active VCL "
			    "%s: vcl.use another first.", av[i]);
			return;
		}
	}
	for (i = 1; i < ac; i++) {
		for (pp = &mgt_vcls; *pp != NULL; pp = &(*pp)->next)
			if (!strcmp((*pp)->name, av[i]))
				break;
		mv = *pp;
		if (mv == NULL)
			continue;	/* named twice */
		if (MGT_ChildRunning()) {
			(void)snprintf(cmd, sizeof cmd, "vcl.discard \"%s\"",
			    mv->name);
			if (MGT_ChildAsk(cmd, &body) != CLIS_OK) {
				r->status = CLIS_CANT;
				MCLI_BufPrintf(&r->body, "%s", body != NULL ?
				    body : "no answer from the child");
				free(body);
				return;
			}
			free(body);
		}
		*pp = mv->next;
		MGT_Log(LOG_NOTICE, "CLI: VCL %s discarded", mv->name);
		/* The child has it mapped; the file can go now. */
		mgt_vcl_free(mv);
	}
}

/* Requests still using each VCL, from the child's list. */
static unsigned
mgt_vcl_busy(const char *list, const char *name)
{
	const char *p, *sp;
	size_t l = strlen(name);

	for (p = list; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		sp = strchr(p, ' ');
		if (sp == NULL)
			break;
		sp = strchr(sp + 1, ' ');
		if (sp != NULL && !strncmp(sp + 1, name, l) &&
		    (sp[1 + l] == '\n' || sp[1 + l] == '\0'))
			return ((unsigned)strtoul(strchr(p, ' ') + 1, NULL,
			    10));
	}
	return (0);
}

static void
mgt_vcl_cmd_list(struct mcli_req *r, int ac, char * const *av)
{
	struct mgt_vcl *mv, *order[256];
	char *list = NULL;
	int n = 0, i, json = ac > 1 && !strcmp(av[1], "-j");

	if (MGT_ChildRunning() && MGT_ChildAsk("vcl.list", &list) != CLIS_OK) {
		free(list);
		list = NULL;
	}
	/* Oldest first, as loaded. */
	for (mv = mgt_vcls; mv != NULL && n < 256; mv = mv->next)
		order[n++] = mv;
	if (json)
		MCLI_JsonHead(&r->body, av);
	for (i = n - 1; i >= 0; i--) {
		mv = order[i];
		if (json) {
			MCLI_BufPrintf(&r->body, ",\n  {\n    \"status\": "
			    "\"%s\",\n    \"state\": \"auto\",\n"
			    "    \"temperature\": \"warm\",\n"
			    "    \"busy\": %u,\n    \"name\": ",
			    mv == mgt_vcl_active ? "active" : "available",
			    mgt_vcl_busy(list, mv->name));
			MCLI_JsonStr(&r->body, mv->name);
			MCLI_BufPrintf(&r->body, "\n  }");
		} else {
			MCLI_BufPrintf(&r->body, "%-10s %5s %-6s %6u %s\n",
			    mv == mgt_vcl_active ? "active" : "available",
			    "auto", "warm", mgt_vcl_busy(list, mv->name),
			    mv->name);
		}
	}
	if (json)
		MCLI_BufPrintf(&r->body, "\n]\n");
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
	if (verbose)
		MCLI_BufPrintf(&r->body, "// VCL.SHOW %s %s\n", mv->name,
		    mv->from);
	MCLI_BufPrintf(&r->body, "%s", mv->source != NULL ? mv->source : "");
}

const struct mcli_cmd MGT_VclCmds[] = {
	{ "vcl.discard", "vcl.discard <configname>...",
	    "Unload the named configurations (when possible): not the "
	    "active one; one still used by requests goes when they end.",
	    1, -1, 0, mgt_vcl_cmd_discard },
	{ "vcl.inline", "vcl.inline <configname> <quoted_VCLstring> "
	    "[auto|cold|warm]",
	    "Compile and load the VCL data under the name provided "
	    "(usually a << document).", 2, 3, 0, mgt_vcl_cmd_inline },
	{ "vcl.list", "vcl.list [-j]", "List all loaded configuration.",
	    0, 0, 1, mgt_vcl_cmd_list },
	{ "vcl.load", "vcl.load <configname> <filename> [auto|cold|warm]",
	    "Compile and load the VCL file under the name provided.",
	    2, 3, 0, mgt_vcl_cmd_load },
	{ "vcl.show", "vcl.show [-v] [<configname>]",
	    "Display the source code for the specified configuration.",
	    0, 2, 0, mgt_vcl_cmd_show },
	{ "vcl.use", "vcl.use <configname>",
	    "Switch to the named configuration immediately: new requests "
	    "use it, those in flight finish on theirs; the cache stays.",
	    1, 1, 0, mgt_vcl_cmd_use },
	{ NULL, NULL, NULL, 0, 0, 0, NULL }
};
