package collector

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxLabelLen caps peer-controlled label values (bytes, cut on a rune boundary).
const maxLabelLen = 128

// cleanLabel makes a peer string safe as a label value: valid UTF-8 (client_golang
// rejects anything else), no control characters or bidi overrides (a dashboard
// would show the label reordered), trimmed and length-capped.
func cleanLabel(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean && len(s) <= maxLabelLen && strings.TrimSpace(s) == s {
		return s // the common case: plain ASCII, no copy
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unsafeRune(r) || r == '\u200b' || r == '\ufeff' {
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if len(s) > maxLabelLen {
		cut := maxLabelLen
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

// uniqueNames cleans player names and makes them distinct with a deterministic
// " (2)", " (3)" suffix, so duplicate names can never produce a duplicate series.
func uniqueNames(names []string) []string {
	out := make([]string, len(names))
	taken := make(map[string]bool, len(names))
	for i, n := range names {
		n = cleanLabel(n)
		if n == "" {
			n = "(unnamed)"
		}
		name := n
		for k := 2; taken[name]; k++ {
			name = n + " (" + strconv.Itoa(k) + ")"
		}
		taken[name] = true
		out[i] = name
	}
	return out
}
