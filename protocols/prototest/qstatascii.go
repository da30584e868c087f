package prototest

import "strings"

// QstatASCII is s as quakestat's JSON output prints a Latin-1 name: its
// non-ASCII characters dropped.
func QstatASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 0x80 {
			return -1
		}
		return r
	}, s)
}
