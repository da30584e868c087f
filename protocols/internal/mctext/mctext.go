// Package mctext holds what the Minecraft protocols (minecraft's Server List Ping,
// gamespy4's Query, bedrock's RakNet pong) share about Minecraft's text.
package mctext

import "strings"

// StripCodes removes legacy formatting codes: '§' (U+00A7) and the character after
// it (colours 0-9a-f, styles k-o, reset r, and the x of BungeeCord's
// "§x§r§r§g§g§b§b" hex colours, each pair removed in turn). A '§' at the end is
// dropped. A string without '§' is returned as it is, without a copy.
func StripCodes(s string) string {
	if !strings.ContainsRune(s, '§') {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	skip := false
	for _, r := range s {
		switch {
		case skip:
			skip = false
		case r == '§':
			skip = true
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}
