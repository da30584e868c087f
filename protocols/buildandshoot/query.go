package buildandshoot

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxBody caps the reply: 32 players and the script list fit in a few KiB.
const maxBody = 256 << 10

// newQuerier returns a Querier for the module's settings (there are no options):
// it reads /json once.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return &protocols.HTTPExchange[*status]{Request: protocols.GetJSON("/json", maxBody),
		Decode: protocols.JSON(decode), Result: func(st *status, _ *wire.Trace) *protocols.Result { return st.result(s.Players) }}, nil
}
