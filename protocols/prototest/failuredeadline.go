package prototest

import (
	"errors"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// FailureDeadline is the deadline of a probe that must fail with want: short
// for a silent server (ErrTimeout), room for a megabyte through the race
// detector for the others.
func FailureDeadline(want error) time.Duration {
	if errors.Is(want, wire.ErrTimeout) {
		return 500 * time.Millisecond
	}
	return 3 * time.Second
}
