package prototest

import (
	"encoding/json"
	"strings"
	"testing"
)

// QstatRecord is quakestat's -json record of one server with its rules (-R)
// and players (-P).
type QstatRecord struct {
	QstatServer
	Rules   map[string]string `json:"rules"`
	Players []QstatPlayer     `json:"players"`
}

// QstatPlayer is one player of a QstatRecord.
type QstatPlayer struct {
	Name    string          `json:"name"`
	Score   int64           `json:"score"`
	Ping    int64           `json:"ping"`
	RawTeam json.RawMessage `json:"team"` // a number when digit-led, else a string
	Type    string          `json:"type"` // "bot" where the protocol flags bots
}

// Team is the player's team as text.
func (p QstatPlayer) Team() string { return strings.Trim(string(p.RawTeam), `"`) }

// QstatOne runs quakestat -json -timeout 5 with args (the flag and address
// last) and returns its one record, failing the test unless the server is
// online. Skips when quakestat is missing.
func QstatOne(t testing.TB, args ...string) QstatRecord {
	t.Helper()
	out := Qstat(t, append([]string{"-json", "-timeout", "5"}, args...)...)
	var recs []QstatRecord
	if err := json.Unmarshal(out, &recs); err != nil || len(recs) != 1 {
		t.Fatalf("quakestat output (%d bytes) does not parse: %v\n%.400s", len(out), err, out)
	}
	if recs[0].Status != "online" {
		t.Fatalf("quakestat status %q", recs[0].Status)
	}
	return recs[0]
}
