package goldsrc

import (
	"net/netip"
	"reflect"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// readHex reads an annotated hex vector from testdata/ (see prototest.ParseHex).
func readHex(t testing.TB, name string) []byte { return prototest.HexFile(t, name) }

// query runs the Querier against addr with a deadline d.
func query(t testing.TB, addr netip.AddrPort, s protocols.Settings, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	return prototest.QueryNew(t, Protocol, addr, s, d)
}

func eq[T any](t testing.TB, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// infoValue returns the value of key in kv and whether it is there.
func infoValue(kv []protocols.KV, key string) (string, bool) {
	for _, x := range kv {
		if x.Key == key {
			return x.Value, true
		}
	}
	return "", false
}

// Deadlines of the round-trip tests. The info fallback sends "details" after half
// the deadline and "info"/"infostring" after 3/4 and 7/8 of it, so a test that needs
// a later query gets a longer deadline (the fake's answer then has room even on a
// loaded machine); tests where the server answers at once cost nothing extra.
const (
	silentDeadline = 300 * time.Millisecond  // the query must fail
	textDeadline   = time.Second             // answered by "details"
	lateDeadline   = 1600 * time.Millisecond // answered by "info" or "infostring"
	answerDeadline = 3 * time.Second         // answered at once
	// slack bounds how long after its deadline a failing query may return: it only
	// catches hangs, not timings.
	slack = 2 * time.Second
)
