package kspdmp

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxBody caps the reply: a status object with its names is well under this.
const maxBody = 256 << 10

// newQuerier returns a Querier for the module's settings (there are no options):
// it reads the status page once.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return &protocols.HTTPExchange[*status]{Request: protocols.GetJSON("/", maxBody),
		Decode: protocols.JSON(decode), Result: func(st *status, _ *wire.Trace) *protocols.Result { return st.result(s.Players) }}, nil
}
