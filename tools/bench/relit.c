/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * relit.c -- how long one yes/no match takes (issue 13): PCRE2
 * interpreted, PCRE2 JIT and the literal-set automaton (src/common/
 * relit.c) on VCL-style patterns and subjects.  Not built by make; after
 * a build in build/:
 *
 *   cc -O2 -Iinclude -Isrc -Ibuild -include build/config.h \
 *       tools/bench/relit.c build/src/common/.libs/libvcommon.a \
 *       -lpcre2-8 -o /tmp/relit_bench && /tmp/relit_bench
 *
 * Prints ns per match for each (best of 5 rounds).
 */

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/relit.h"

#define BRANDS "Acer|Alcatel|Amazon|Amoi|Android|Archos|Asus|Audiovox|" \
    "BenQ|Bird|BlackBerry|Blackberry|BB10|Blazer|Bolt|Casio|Cricket|" \
    "Danger|Dell|Docomo|Dopod|Ericsson|Fennec|Fly|Garmin|Gionee|" \
    "Gradiente|Grundig|Haier|Hiptop|Hitachi|HTC|Huawei|iPad|iPhone|iPod|" \
    "IEMobile|Infinix|Innostream|Kddi|Kindle|Kyocera|Lava|Lenovo|LG|LGE|" \
    "Maemo|Meizu|Micromax|Midp|Minimo|Mitsu|Mmp|Mobile|Mot|Motorola|NEC|" \
    "Nexus|Nintendo|Nokia|NOKIA|Novarra|Oppo|Opera Mini|Opera Mobi|Palm|" \
    "Panasonic|Pantech|Philips|Phone|Playbook|PlayStation|Pocket|" \
    "Portalmmm|Psp|Qtek|Realme|Sagem|SAGEM|Samsung|SAMSUNG|Sanyo|Sch-|" \
    "Sec-|Sendo|Sgh-|Sharp|Siemens|Sie-|Silk|Smartphone|Softbank|Sony|" \
    "SonyEricsson|Spv|Symbian|Symbos|Tablet|Tcl|Techfaith|Telit|Toshiba|" \
    "Treo|Up\\.Browser|Up\\.Link|Vertu|Vivo|Vodafone|Wap|webOS|" \
    "Windows CE|Windows Phone|Wireless|Xda|Xiaomi|Zte|ZTE|Zune|Mi |Redmi"

static const char *desktop = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) "
    "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
    "Safari/537.36 Edg/120.0.0.0";
static const char *mobile = "Mozilla/5.0 (Linux; Android 14; SM-S918B) "
    "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 "
    "Mobile Safari/537.36";

static const struct {
	const char *pattern;
	const char *subject;
} cases[] = {
	{ "(" BRANDS ")", NULL },
	{ "(?i)(" BRANDS ")", NULL },
	{ "(?i)android|blackberry|iphone", NULL },
	{ "^/(static|media|assets|img)/", "/catalog/products/12345?page=2" },
	{ "utm_", "/catalog/products/12345?page=2&ref=home&sort=price" },
	{ "\\.(jpg|jpeg|png|gif|webp|css|js)$", "/static/app/main.min.css" },
	{ ".*utm_.*", "/catalog/products/12345?page=2&ref=home&sort=price" },
};

static double
now(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1e9 + ts.tv_nsec);
}

#define N 200000

static double
bench_pcre(pcre2_code *c, pcre2_match_data *md, const char *s, size_t l)
{
	double best = 1e30, t;
	int r, i, hits = 0;

	for (r = 0; r < 5; r++) {
		t = now();
		for (i = 0; i < N; i++)
			hits += pcre2_match(c, (PCRE2_SPTR)s, l, 0, 0, md,
			    NULL) >= 0;
		t = (now() - t) / N;
		if (t < best)
			best = t;
	}
	return (hits < 0 ? 0 : best);
}

int
main(void)
{
	pcre2_code *plain, *jit;
	pcre2_match_data *md;
	struct relit *rl;
	const char *subj[2], *s;
	char *simp;
	double best, t;
	PCRE2_SIZE off;
	size_t u, v, l;
	int err, r, i, hits;

	md = pcre2_match_data_create(1, NULL);
	for (u = 0; u < sizeof cases / sizeof *cases; u++) {
		plain = pcre2_compile((PCRE2_SPTR)cases[u].pattern,
		    PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
		jit = pcre2_compile((PCRE2_SPTR)cases[u].pattern,
		    PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
		if (plain == NULL || jit == NULL ||
		    pcre2_jit_compile(jit, PCRE2_JIT_COMPLETE) != 0)
			return (1);
		simp = RELIT_Simplify(cases[u].pattern);
		rl = RELIT_Compile(simp != NULL ? simp : cases[u].pattern,
		    NULL, 0);
		subj[0] = cases[u].subject != NULL ? cases[u].subject :
		    desktop;
		subj[1] = cases[u].subject != NULL ? NULL : mobile;
		for (v = 0; v < 2 && subj[v] != NULL; v++) {
			s = subj[v];
			l = strlen(s);
			printf("%.40s%s on %zu bytes (%s):\n", cases[u].pattern,
			    strlen(cases[u].pattern) > 40 ? "..." : "", l,
			    rl != NULL ? RELIT_Describe(rl) : "PCRE2 only");
			printf("  pcre2 %8.1f ns  pcre2-jit %7.1f ns",
			    bench_pcre(plain, md, s, l),
			    bench_pcre(jit, md, s, l));
			if (rl != NULL) {
				best = 1e30;
				hits = 0;
				for (r = 0; r < 5; r++) {
					t = now();
					for (i = 0; i < N; i++)
						hits += RELIT_Match(rl, s, l);
					t = (now() - t) / N;
					if (t < best)
						best = t;
				}
				printf("  relit %6.1f ns (match %d)",
				    best, hits > 0);
			}
			printf("\n");
		}
		RELIT_Free(&rl);
		free(simp);
		pcre2_code_free(plain);
		pcre2_code_free(jit);
	}
	pcre2_match_data_free(md);
	return (0);
}
