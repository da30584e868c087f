// Package s2games holds what the query protocols of S2 Games' engines share:
// Savage (savage) and Savage 2 (savage2) both colour names with ^ codes.
package s2games

import "strings"

// Strip removes S2 Games colour codes: ^ followed by three digits (^900) or a
// letter (^y). A single pass, as the games draw it: "^^AA" leaves "^A".
func Strip(s string) string {
	if strings.IndexByte(s, '^') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '^' {
			if i+3 < len(s) && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) {
				i += 3
				continue
			}
			if i+1 < len(s) && isLetter(s[i+1]) {
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
