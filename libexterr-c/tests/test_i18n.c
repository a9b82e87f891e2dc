// SPDX-License-Identifier: MIT
/*
 * exterr_format() and the gettext catalogue: under LANGUAGE=de with
 * LC_ALL=C.UTF-8 the message of a site with a German translation is
 * German and nothing else changes; without an id, for an id the catalogue
 * lacks, and under LC_ALL=C the line is the English one, byte for byte.
 *
 * The library binds its text domain to the install prefix on first use;
 * the test then rebinds it to the catalogues of the build tree
 * (EXTERR_TEST_LOCALEDIR), which the library leaves alone after that.
 * Exits 77 (skipped) when the C.UTF-8 locale is missing.
 */
#include <libintl.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include <exterr.h>
#include "t.h"

#define DOMAIN "exterr-kernel"

#define V2 "{\"code\":-22,\"id\":\"perf.sample_freq.above_max_rate\",\"module\":\"perf\",\"file\":\"kernel/events/core.c\",\"line\":13134,\"message\":\"sample_freq above kernel.perf_event_max_sample_rate\",\"syscall\":298,\"values\":{\"sample_freq\":1099511627776,\"limit\":100000},\"attr_field\":\"sample_freq\"}"
#define V2_EN "Invalid argument: sample_freq above kernel.perf_event_max_sample_rate [perf attr_field=sample_freq sample_freq=1099511627776 limit=100000] (kernel/events/core.c:13134)"
#define V2_DE "Invalid argument: sample_freq liegt \xc3\xbc" "ber kernel.perf_event_max_sample_rate [perf attr_field=sample_freq sample_freq=1099511627776 limit=100000] (kernel/events/core.c:13134)"

#define NOTE "{\"code\":0,\"severity\":\"info\",\"id\":\"v4l2.vivid.fmt.pixelformat_replaced\",\"module\":\"vivid\",\"file\":\"drivers/media/test-drivers/vivid/vivid-vid-cap.c\",\"line\":660,\"message\":\"pixelformat not supported, replaced by YUYV\",\"values\":{\"requested\":1482184792,\"granted\":1448695129},\"field\":\"pixelformat\"}"
#define NOTE_EN "note: pixelformat not supported, replaced by YUYV [vivid field=pixelformat requested=1482184792 granted=1448695129] (drivers/media/test-drivers/vivid/vivid-vid-cap.c:660)"
#define NOTE_DE "note: pixelformat nicht unterst\xc3\xbctzt, durch YUYV ersetzt [vivid field=pixelformat requested=1482184792 granted=1448695129] (drivers/media/test-drivers/vivid/vivid-vid-cap.c:660)"

/* A v1 description: no id, so never translated. */
#define V1 "{\"code\":-22,\"module\":\"perf\",\"file\":\"kernel/events/core.c\",\"line\":12883,\"message\":\"sample_freq above kernel.perf_event_max_sample_rate\",\"syscall\":298,\"attr_field\":\"sample_freq\"}"
#define V1_EN "Invalid argument: sample_freq above kernel.perf_event_max_sample_rate [perf attr_field=sample_freq] (kernel/events/core.c:12883)"

/* An id the catalogue does not have. */
#define UNKNOWN "{\"code\":-22,\"id\":\"perf.no.such_site\",\"module\":\"perf\",\"file\":\"kernel/events/core.c\",\"line\":1,\"message\":\"bad \\\"thing\\\"\\n\"}"
#define UNKNOWN_EN "Invalid argument: bad \"thing\"\\n [perf] (kernel/events/core.c:1)"

/* The id is the header's msgid "" or not an id at all: English. */
#define EMPTY_ID "{\"code\":-22,\"id\":\"\",\"module\":\"perf\",\"file\":\"f.c\",\"line\":1,\"message\":\"m\"}"
#define BAD_ID "{\"code\":-22,\"id\":\"Perf.Sample_Freq.Above_Max_Rate\",\"module\":\"perf\",\"file\":\"f.c\",\"line\":1,\"message\":\"m\"}"

static const char *fmt(const char *json)
{
	static char buf[4096];
	struct exterr *err = NULL;
	int n;

	if (exterr_parse(json, strlen(json), &err)) {
		CHECK(!"parse failed");
		return "(parse failed)";
	}
	n = exterr_format(err, buf, sizeof(buf));
	CHECK_INT(n, strlen(buf));
	/* snprintf() semantics count the bytes of the translation. */
	CHECK_INT(exterr_format(err, NULL, 0), n);
	exterr_free(err);
	return buf;
}

static int set_locale(const char *lc_all)
{
	setenv("LANGUAGE", "de", 1);
	setenv("LC_ALL", lc_all, 1);
	return setlocale(LC_ALL, "") != NULL;
}

static void check_english(void)
{
	CHECK_STR(fmt(V2), V2_EN);
	CHECK_STR(fmt(NOTE), NOTE_EN);
	CHECK_STR(fmt(V1), V1_EN);
	CHECK_STR(fmt(UNKNOWN), UNKNOWN_EN);
}

int main(void)
{
	const char *bound;

	/* Not setlocale()d yet: the C locale. The first lookup binds the
	 * text domain to the install prefix. */
	CHECK_STR(fmt(V2), V2_EN);
	bound = bindtextdomain(DOMAIN, NULL);
	CHECK_STR(bound, EXTERR_INSTALL_LOCALEDIR);
	CHECK_STR(bind_textdomain_codeset(DOMAIN, NULL), "UTF-8");
	CHECK(bindtextdomain(DOMAIN, EXTERR_TEST_LOCALEDIR) != NULL);

	/* The C locale ignores LANGUAGE: English, as the conformance suite
	 * expects, although a German catalogue is at hand. */
	CHECK(set_locale("C"));
	check_english();

	if (!set_locale("C.UTF-8")) {
		printf("no C.UTF-8 locale: German part skipped\n");
		t_done();
		return t_failed ? 1 : 77;
	}
	CHECK_STR(fmt(V2), V2_DE);
	CHECK_STR(fmt(NOTE), NOTE_DE);
	CHECK_STR(fmt(V1), V1_EN);
	CHECK_STR(fmt(UNKNOWN), UNKNOWN_EN);
	CHECK_STR(fmt(EMPTY_ID), "Invalid argument: m [perf] (f.c:1)");
	CHECK_STR(fmt(BAD_ID), "Invalid argument: m [perf] (f.c:1)");
	/* Only the message: strerrordesc_np() stays English. */
	CHECK(!strncmp(fmt(V2), "Invalid argument: ", 18));

	/* LANGUAGE=en (no catalogue): English again. */
	setenv("LANGUAGE", "en", 1);
	setlocale(LC_ALL, "");
	check_english();

	/* And back to the C locale. */
	CHECK(set_locale("C"));
	check_english();
	return t_done();
}
