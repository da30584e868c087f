package idtech

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

func TestHumans(t *testing.T) {
	unknown := protocols.Count{}
	for _, tc := range []struct {
		total, bots, want protocols.Count
	}{
		{protocols.Known(4), protocols.Known(4), protocols.Known(0)},
		{protocols.Known(5), protocols.Known(2), protocols.Known(3)},
		{protocols.Known(5), unknown, protocols.Known(5)},
		{protocols.Known(5), protocols.Known(0), protocols.Known(5)},
		{unknown, protocols.Known(2), unknown},
		{protocols.Known(1), protocols.Known(2), unknown},
	} {
		if got := Humans(tc.total, tc.bots); got != tc.want {
			t.Errorf("Humans(%+v, %+v) = %+v, want %+v", tc.total, tc.bots, got, tc.want)
		}
	}
}
