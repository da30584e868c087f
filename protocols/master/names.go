package master

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// A list's player names are kept for the list-lookup modules (players: true):
// bounded per entry, as the exporter bounds per-player series, so a list of
// thousands of servers holds no more than a few KiB per server.
const (
	maxNames   = 64
	maxNameLen = 64
)

// playerNames reads a list's names: a JSON array of strings, or one string of
// names each ended by ';' (BeamMP's playerslist). Empty names are dropped,
// line breaks and NULs inside a name become spaces; the result is one name a
// line.
func playerNames(v json.RawMessage) string {
	if len(v) == 0 {
		return ""
	}
	var list []string
	if v[0] == '[' {
		var raw []json.RawMessage
		if json.Unmarshal(v, &raw) != nil {
			return ""
		}
		for _, r := range raw[:min(len(raw), maxNames)] {
			list = append(list, str(r))
		}
	} else {
		list = strings.SplitN(str(v), ";", maxNames+1)
		list = list[:min(len(list), maxNames)]
	}
	var b strings.Builder
	for _, n := range list {
		n = strings.TrimSpace(strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' || r == 0 {
				return ' '
			}
			return r
		}, n))
		if len(n) > maxNameLen {
			n = n[:maxNameLen]
			for !utf8.ValidString(n) {
				n = n[:len(n)-1]
			}
		}
		if n == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(n)
	}
	return b.String()
}
