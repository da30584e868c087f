package steam

import (
	"context"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Module is what an A2S querier (a2s, goldsrc) keeps of its module: the
// settings, its own challenge cache and the code page of the names.
type Module struct {
	Players, Rules bool
	Retries        int
	Challenges     *ChallengeCache     // nil: challenge_cache: false
	Text           func([]byte) string // the module's encoding:, nil: Text
}

// ModuleFor reads the module of protocol name: its settings and its options
// block (CacheOptions).
func ModuleFor(name string, s protocols.Settings) (Module, error) {
	c, err := CacheFor(name, s)
	if err != nil {
		return Module{}, err
	}
	text, err := TextFor(name, s)
	if err != nil {
		return Module{}, err
	}
	return Module{Players: s.Players, Rules: s.Rules, Retries: max(s.Retries, 0), Challenges: c, Text: text}, nil
}

// Open dials t and readies x for the module's exchanges on the socket: x re-sends
// (Retries) and keeps the challenges (Challenges) itself. Field by field: a
// composite literal would build a second copy in the frame of a waiting probe.
func (x *Exchanger) Open(ctx context.Context, t protocols.Target, tr *wire.Trace, m *Module) error {
	conn, err := wire.DialUDP(ctx, t.Addr, tr)
	if err != nil {
		return err
	}
	x.Conn, x.Tr, x.Retries, x.Cache, x.Addr = conn, tr, m.Retries, m.Challenges, t.Addr
	return nil
}
