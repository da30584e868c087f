package prototest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// CountText is a count as ProbeLine writes it: its value, or "?" when not
// reported.
func CountText(c protocols.Count) string {
	if !c.Known {
		return "?"
	}
	return strconv.FormatInt(c.Value, 10)
}

// ProbeLine is what a probe gave, in one line a test compares whole: the
// error's reason (and whether a result came with it), or the name, map, game, version, players/max, bots, password flag,
// the listed names ("-" for no list; their number past 8), the number of rules ("-" for none) and
// of info pairs, and the phase errors; then the trace's phases with their
// reasons, the number of datagrams it skipped and of its log entries. For
// example:
//
//	"Lossy" "CTF-Face" "" "" 2/10 bots ? pw 0 [First Third] rules - info 4 partial [players:truncated] | info:ok skipped 0 log 0
func ProbeLine(res *protocols.Result, tr *wire.Trace, err error) string {
	var b strings.Builder
	switch {
	case err != nil:
		fmt.Fprintf(&b, "error %s", wire.Reason(err))
		if res != nil {
			b.WriteString(" with a result")
		}
	case res == nil:
		b.WriteString("no result")
	default:
		fmt.Fprintf(&b, "%q %q %q %q %s/%s bots %s pw %d ", res.Name, res.Map, res.Game, res.Version, CountText(res.Players), CountText(res.MaxPlayers), CountText(res.Bots), res.Password)
		switch n := len(res.PlayerList); {
		case res.PlayerList == nil:
			b.WriteString("-")
		case n > 8:
			fmt.Fprintf(&b, "[%d players]", n)
		default:
			b.WriteString(PlayerNames(res))
		}
		b.WriteString(" rules ")
		if res.Rules == nil {
			b.WriteString("-")
		} else {
			b.WriteString(strconv.Itoa(len(res.Rules)))
		}
		fmt.Fprintf(&b, " info %d partial %v", len(res.Info), phaseErrors(res))
	}
	if tr != nil {
		fmt.Fprintf(&b, " | %s skipped %d log %d", PhaseReasons(tr), Ignored(tr), len(tr.Entries))
	}
	return b.String()
}

// CheckProbe compares the probe's ProbeLine with want. A want that stops
// before the trace (no " | ") or before the skipped datagrams (no " skipped ")
// is compared with as much of the line: what a trace holds past it may depend
// on the machine's timing.
func CheckProbe(t testing.TB, res *protocols.Result, tr *wire.Trace, err error, want string) {
	t.Helper()
	got := ProbeLine(res, tr, err)
	for _, cut := range []string{" | ", " skipped "} {
		if !strings.Contains(want, cut) {
			got, _, _ = strings.Cut(got, cut)
		}
	}
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
