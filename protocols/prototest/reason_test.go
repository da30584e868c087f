package prototest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func TestCheckReason(t *testing.T) {
	f := &fatalCounter{TB: t}
	CheckReason(f, nil)
	CheckReason(f, fmt.Errorf("%w: player 2", wire.ErrTruncated))
	if f.n != 0 {
		t.Errorf("%d failures for errors with a reason", f.n)
	}
	CheckReason(f, errors.New("no sentinel"))
	if f.n != 1 {
		t.Errorf("%d failures, want 1 for an error without a reason", f.n)
	}
}
