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
#include "mgt/mgt.h"
#include "vcc/vcc.h"

/* vcl/vcl_hdrs.c, generated from include/ by tools/embed.c */
struct embed_file {
	const char *name;
	const char *text;
};
extern const struct embed_file VCL_hdrs[];

static char *mgt_vcl_c;			/* the boot VCL's C */
static char mgt_vcl_name[] = "boot";

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

	memset(&opts, 0, sizeof opts);
	opts.vcl_path = cache_param->vcl_path.s;
	opts.err_unref = cache_param->vcc_err_unref;
	opts.allow_inline_c = cache_param->vcc_allow_inline_c;
	opts.optimize = cache_param->vcc_optimize;
	if (b_arg != NULL)
		src = mgt_vcl_b_source(b_arg);
	else
		f_arg = mgt_vcl_find(f_arg, path, sizeof path);
	i = VCC_Compile(&opts, b_arg != NULL ? "<-b>" : f_arg, src, &c,
	    &msg);
	free(src);
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

/* Copy what cc said to stderr. */
static void
mgt_vcl_cat(const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f;

	f = fopen(path, "r");
	if (f == NULL)
		return;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		(void)fwrite(buf, 1, n, stderr);
	(void)fclose(f);
}

void
MGT_VclBuild(struct child_args *ca)
{
	char dir[1024], src[1100], obj[1100], *cmd;
	const struct embed_file *ef;
	struct stat st;

	if (mgt_vcl_c == NULL)
		return;
	(void)snprintf(dir, sizeof dir, "%s/vcl_%s", ca->workdir,
	    mgt_vcl_name);
	mgt_vcl_rmdir(dir);
	if (mkdir(dir, 0755) != 0)
		MGT_Fatal("cannot create %s: %s", dir, strerror(errno));
	for (ef = VCL_hdrs; ef->name != NULL; ef++)
		if (mgt_vcl_write(dir, ef->name, ef->text) != 0)
			MGT_Fatal("cannot write %s/%s: %s", dir, ef->name,
			    strerror(errno));
	if (mgt_vcl_write(dir, "vgc.c", mgt_vcl_c) != 0)
		MGT_Fatal("cannot write %s/vgc.c: %s", dir, strerror(errno));
	(void)snprintf(src, sizeof src, "%s/vgc.c", dir);
	(void)snprintf(obj, sizeof obj, "%s/vgc.so", dir);
	cmd = mgt_vcl_cc_cmd(cache_param->cc_command.s, src, obj);
	if (cmd == NULL)
		MGT_Fatal("cc_command is too long once expanded");
	if (mgt_vcl_cc(dir, cmd) != 0 || stat(obj, &st) != 0) {
		(void)fprintf(stderr, "Building the compiled VCL failed.\n"
		    "Command: %s\n", cmd);
		(void)snprintf(src, sizeof src, "%s/cc.log", dir);
		mgt_vcl_cat(src);
		exit(2);
	}
	free(cmd);
	/* The child may run as another user (-j): it must read these. */
	if (chmod(dir, 0755) != 0 || chmod(obj, 0644) != 0)
		MGT_Fatal("cannot make %s readable: %s", obj, strerror(errno));
	(void)snprintf(ca->vcl_so, sizeof ca->vcl_so, "%s", obj);
	(void)snprintf(ca->vcl_name, sizeof ca->vcl_name, "%s",
	    mgt_vcl_name);
	free(mgt_vcl_c);
	mgt_vcl_c = NULL;
}
