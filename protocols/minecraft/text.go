package minecraft

import "strings"

// stripCodes removes legacy formatting codes: '§' (U+00A7) and the character
// after it (colours 0-9a-f, styles k-o, reset r, and the x of BungeeCord's
// "§x§r§r§g§g§b§b" hex colours, each pair removed in turn). A '§' at the end
// is dropped.
func stripCodes(s string) string {
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

// oneLine makes a label of a multi-line MOTD: line breaks become spaces, runs
// of blanks (MOTDs are often centred with spaces) collapse to one, and the ends
// are trimmed.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
