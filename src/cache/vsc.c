/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsc.c -- publishing the counters.  Owns the mapping of the counters
 * file; values are only ever changed with atomic adds, so there is no
 * lock.
 *
 * XXX issue 4: the file becomes a Varnish 7.1 counter segment (with its
 * JSON description); the fields and VSC_Flush stay.
 *
 * File layout (native byte order): a header of five uint64_t (magic
 * "VNRVSC1\0", number of fields, child pid, offset of the names, offset of
 * the values), the names NUL-terminated in table order, the values.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "common/tim.h"
#include "cache/vsc.h"

struct vsc_file_head {
	char		magic[8];
	uint64_t	nfields;
	uint64_t	child_pid;
	uint64_t	names_offset;
	uint64_t	values_offset;
};

static const char vsc_names[] =
#define VSC_FIELD(n, t, l, d)	#n "\0"
#include "vsc_fields.h"
;

static struct vsc_main vsc_dummy;
struct vsc_main *VSC_C_main = &vsc_dummy;
static vtim_mono vsc_t0;

#define VSC_NFIELDS	(sizeof(struct vsc_main) / sizeof(uint64_t))

int
VSC_Init(const char *workdir, char *err, size_t errlen)
{
	struct vsc_file_head head;
	char path[1024], tmp[1024];
	size_t len, voff;
	void *p;
	int fd;

	vsc_t0 = TIM_mono();
	memset(&head, 0, sizeof head);
	memcpy(head.magic, "VNRVSC1", 8);
	head.nfields = VSC_NFIELDS;
	head.child_pid = (uint64_t)getpid();
	head.names_offset = sizeof head;
	voff = (sizeof head + sizeof vsc_names + 63) & ~(size_t)63;
	head.values_offset = voff;
	len = voff + sizeof(struct vsc_main);

	(void)snprintf(path, sizeof path, "%s/_.counters", workdir);
	(void)snprintf(tmp, sizeof tmp, "%s/_.counters.%ld", workdir,
	    (long)getpid());
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		(void)snprintf(err, errlen, "cannot create %s: %s", tmp,
		    strerror(errno));
		return (-1);
	}
	if (ftruncate(fd, (off_t)len) != 0 ||
	    pwrite(fd, &head, sizeof head, 0) != (ssize_t)sizeof head ||
	    pwrite(fd, vsc_names, sizeof vsc_names, sizeof head) !=
	    (ssize_t)sizeof vsc_names) {
		(void)snprintf(err, errlen, "cannot write %s: %s", tmp,
		    strerror(errno));
		(void)close(fd);
		(void)unlink(tmp);
		return (-1);
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	(void)close(fd);
	if (p == MAP_FAILED) {
		(void)snprintf(err, errlen, "cannot map %s: %s", tmp,
		    strerror(errno));
		(void)unlink(tmp);
		return (-1);
	}
	if (rename(tmp, path) != 0) {
		(void)snprintf(err, errlen, "cannot rename %s to %s: %s",
		    tmp, path, strerror(errno));
		(void)unlink(tmp);
		return (-1);
	}
	VSC_C_main = (struct vsc_main *)(void *)((char *)p + voff);
	return (0);
}

void
VSC_Flush(struct vsc_main *local)
{
	uint64_t *l = (uint64_t *)(void *)local;
	uint64_t *g = (uint64_t *)(void *)VSC_C_main;
	size_t u;

	for (u = 0; u < VSC_NFIELDS; u++) {
		if (l[u] == 0)
			continue;
		(void)__atomic_add_fetch(&g[u], l[u], __ATOMIC_RELAXED);
		l[u] = 0;
	}
}

void
VSC_Tick(void)
{

	__atomic_store_n(&VSC_C_main->uptime,
	    (uint64_t)(TIM_mono() - vsc_t0), __ATOMIC_RELAXED);
}

void
VSC_DumpRoff(void)
{

#define VSC_FIELD(n, t, l, d)						\
	printf(".TP\n.B MAIN.%s\n%s, %s. %s.\n", #n,			\
	    #t[0] == 'C' ? "counter" : "gauge",				\
	    #l[0] == 'I' ? "info" : #l[1] == 'I' ? "diag" : "debug", d);
#include "vsc_fields.h"
}
