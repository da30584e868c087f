package idtechtest

import (
	"errors"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TooLarge wants decode to refuse, as too large, a datagram of head and
// zeros one byte over idtech.MaxDatagram.
func TooLarge[T any](t *testing.T, decode func([]byte) (*T, error), head string) {
	t.Helper()
	b := append([]byte(head), make([]byte, idtech.MaxDatagram+1-len(head))...)
	if r, err := decode(b); !errors.Is(err, wire.ErrTooLarge) || r != nil {
		t.Errorf("oversized datagram: %v, want too large", err)
	}
}
