package terraria

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxBody caps the reply: 255 players and the rules fit in a few tens of KiB.
const maxBody = 256 << 10

// newQuerier returns a Querier that sends the one status request, asking for the
// players and rules the module wants (with its token, masked in the trace, when it
// has one), and decodes its reply.
var newQuerier = protocols.WithOptions("terraria", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	req := protocols.GetJSON(fmt.Sprintf("/v2/server/status?players=%t&rules=%t", s.Players, s.Rules), maxBody)
	if _, err := protocols.QuerySecret(&req, "terraria token", "token", opts.Token, opts.TokenFile); err != nil {
		return nil, err
	}
	return &protocols.HTTPExchange[*status]{Request: req, Decode: decode,
		Result: func(st *status, _ *wire.Trace) *protocols.Result { return st.result(s.Players, s.Rules) }}, nil
})
