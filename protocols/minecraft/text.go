package minecraft

import "strings"

// oneLine makes a label of a multi-line MOTD: line breaks become spaces, runs
// of blanks (MOTDs are often centred with spaces) collapse to one, and the ends
// are trimmed.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
