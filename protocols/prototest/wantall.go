package prototest

import (
	"strings"
	"testing"
)

// WantAll fails the test (going on) for each of wants that text lacks: a page,
// an exposition, a command's output checked for what it must say.
func WantAll(t testing.TB, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}
