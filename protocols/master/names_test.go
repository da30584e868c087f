package master

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPlayerNames(t *testing.T) {
	many := make([]string, maxNames+10)
	for i := range many {
		many[i] = "p"
	}
	manyJSON, _ := json.Marshal(many)
	long := strings.Repeat("é", maxNameLen) // two bytes each: cut on a rune
	for _, tc := range []struct{ in, want string }{
		{`"a;b;c;"`, "a\nb\nc"},            // BeamMP's playerslist
		{`""`, ""},                         // nobody on
		{`["alice", "bob"]`, "alice\nbob"}, // Factorio's, Luanti's
		{`[" x ", "", 7, {"a": 1}, "y\nz"]`, "x\n7\ny z"},
		{`{"a": 1}`, ""},
		{`null`, ""},
		{`"` + long + `"`, strings.Repeat("é", maxNameLen/2)},
		{string(manyJSON), strings.Repeat("p\n", maxNames-1) + "p"},
		{`"` + strings.Repeat("q;", maxNames+10) + `"`, strings.Repeat("q\n", maxNames-1) + "q"},
	} {
		if got := playerNames(json.RawMessage(tc.in)); got != tc.want {
			t.Errorf("%.40s: %q, want %q", tc.in, got, tc.want)
		}
	}
}
