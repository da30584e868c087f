package eldewrito

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxBody caps the reply: 16 players and the replicated variables fit in a few KiB.
const maxBody = 256 << 10

// newQuerier returns a Querier that asks the info server once, with the password
// when the module has one.
var newQuerier = protocols.WithOptions("eldewrito", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	pw, err := protocols.LoadSecret(opts.Password, opts.PasswordFile)
	if err != nil {
		return nil, fmt.Errorf("eldewrito password: %w", err)
	}
	req := protocols.GetJSON("/", maxBody)
	if pw != "" {
		req.Header.Set("Authorization", protocols.BasicAuth("dorito", pw).Reveal())
	}
	return &protocols.HTTPExchange[*info]{Request: req, Decode: protocols.JSON(decode),
		Result: func(in *info, _ *wire.Trace) *protocols.Result { return in.result(s.Players, s.Rules, pw != "") }}, nil
})
