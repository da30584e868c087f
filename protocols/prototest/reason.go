package prototest

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// CheckReason fails the test when err, a decoder's refusal, wraps none of the
// sentinels (its wire.Reason is "" or "other"); a nil err passes.
func CheckReason(t testing.TB, err error) {
	t.Helper()
	if r := wire.Reason(err); err != nil && (r == "" || r == "other") {
		t.Fatalf("error without a reason: %v", err)
	}
}
