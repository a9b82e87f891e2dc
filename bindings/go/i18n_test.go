//go:build cgo

package exterr_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"exterr.dev/go/exterr"
	"exterr.dev/go/exterr/internal/clocale"
)

// A v2 description whose id has a German translation in
// libexterr-c/po/de.po; only the message changes with the locale.
const i18nJSON = `{"code":-22,"id":"perf.sample_freq.above_max_rate","module":"perf",` +
	`"file":"kernel/events/core.c","line":13134,` +
	`"message":"sample_freq above kernel.perf_event_max_sample_rate","syscall":298,` +
	`"values":{"sample_freq":1099511627776,"limit":100000},"attr_field":"sample_freq"}`

const (
	i18nTail    = " [perf attr_field=sample_freq sample_freq=1099511627776 limit=100000] (kernel/events/core.c:13134)"
	i18nEnglish = "Invalid argument: sample_freq above kernel.perf_event_max_sample_rate" + i18nTail
	// de.po's msgstr for the id; strerror's part stays English.
	i18nGerman = "Invalid argument: sample_freq liegt über kernel.perf_event_max_sample_rate" + i18nTail
)

// i18nChildEnv marks the re-executed test binary that does the work.
const i18nChildEnv = "EXTERR_GO_I18N_CHILD"

// TestI18nChild is the child's half of TestErrorTranslated: it calls
// setlocale(LC_ALL, "") and prints Error() of the description. In a child,
// because setlocale changes the whole process, and the other tests expect
// the C locale's English lines.
func TestI18nChild(t *testing.T) {
	if os.Getenv(i18nChildEnv) != "1" {
		t.Skip("run by TestErrorTranslated in a child process")
	}
	if _, err := clocale.FromEnvironment(); err != nil {
		t.Fatal(err)
	}
	e, err := exterr.Parse([]byte(i18nJSON))
	if err != nil {
		t.Fatal(err)
	}
	// Between markers: go test prints lines of its own around it.
	os.Stdout.WriteString("<<" + e.Error() + ">>\n")
}

// errorLineUnder runs TestI18nChild with the given LC_ALL (and LANGUAGE=de,
// which glibc honours in every locale but C) and returns its line.
func errorLineUnder(t *testing.T, lcAll string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestI18nChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), i18nChildEnv+"=1", "LANGUAGE=de", "LC_ALL="+lcAll)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child under LC_ALL=%s: %v\n%s", lcAll, err, out)
	}
	_, rest, ok := strings.Cut(string(out), "<<")
	line, _, ok2 := strings.Cut(rest, ">>\n")
	if !ok || !ok2 {
		t.Fatalf("child under LC_ALL=%s printed no line:\n%s", lcAll, out)
	}
	return line
}

// TestErrorTranslated: Error() is libexterr's exterr_format(), whose
// message is looked up by id in the exterr-kernel catalogue installed with
// the library. The German line proves the catalogue was found where the
// library was configured to look (its install prefix).
func TestErrorTranslated(t *testing.T) {
	if got := errorLineUnder(t, "C.UTF-8"); got != i18nGerman {
		t.Errorf("LANGUAGE=de LC_ALL=C.UTF-8:\n got %q\nwant %q\n(is exterr-kernel.mo installed "+
			"under the locale directory libexterr was configured with?)", got, i18nGerman)
	}
	// The C locale ignores LANGUAGE: English, catalogue or not.
	if got := errorLineUnder(t, "C"); got != i18nEnglish {
		t.Errorf("LC_ALL=C:\n got %q\nwant %q", got, i18nEnglish)
	}
}

// Without setlocale the process stays in the C locale: English even under
// LANGUAGE=de LC_ALL=C.UTF-8, which is why programs must call it.
func TestErrorUntranslatedWithoutSetlocale(t *testing.T) {
	t.Setenv("LANGUAGE", "de")
	t.Setenv("LC_ALL", "C.UTF-8")
	e, err := exterr.Parse([]byte(i18nJSON))
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Error(); got != i18nEnglish {
		t.Errorf("got %q\nwant %q", got, i18nEnglish)
	}
}
