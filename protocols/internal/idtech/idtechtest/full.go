package idtechtest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Full is a query with players and rules on of a fake that answers
// Status.Reply with Lines, and what it must return.
type Full struct {
	Lines []string
	// Handler, when set, is the fake instead (quake3's also answers getinfo).
	Handler    func(req []byte, lines ...string) [][]byte
	Name       string
	Map        string
	Game       string
	Version    string
	Players    protocols.Count
	MaxPlayers protocols.Count
	Bots       protocols.Count
	Password   protocols.Flag
	PlayerList []protocols.Player
	Rules      int      // rules, and info pairs
	Phases     []string // the trace's phases in order, each without an error
	Request    string   // when set, the one request sent
	// Check asserts the protocol's own points: the requests sent, in order,
	// and anything else of the result or the trace.
	Check func(t *testing.T, reqs []string, res *protocols.Result, tr *wire.Trace)
}

func (s Status) full(t *testing.T) {
	w := s.Full
	var mu sync.Mutex
	var reqs []string
	h := w.Handler
	if h == nil {
		h = func(req []byte, lines ...string) [][]byte { return [][]byte{s.Reply(req, lines...)} }
	}
	tr := wire.NewTrace()
	res, err := s.query(t, protocols.Settings{Players: true, Rules: true, Retries: 3}, 2*time.Second, func(req []byte) [][]byte {
		mu.Lock()
		reqs = append(reqs, string(req))
		mu.Unlock()
		return h(req, w.Lines...)
	}, tr)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	w.check(t, res)
	ok := len(tr.Phases) == len(w.Phases)
	for i := 0; ok && i < len(w.Phases); i++ {
		ok = tr.Phases[i].Name == w.Phases[i] && tr.Phases[i].Err == nil
	}
	if !ok {
		t.Errorf("phases = %+v, want %q without errors", tr.Phases, w.Phases)
	}
	if w.Request != "" && (len(reqs) != 1 || reqs[0] != w.Request) {
		t.Errorf("requests %q, want one %q", reqs, w.Request)
	}
	if w.Check != nil {
		w.Check(t, reqs, res, tr)
	}
}

// check holds the result to the fields w wants.
func (w Full) check(t *testing.T, res *protocols.Result) {
	t.Helper()
	if res.Name != w.Name || res.Map != w.Map || res.Game != w.Game || res.Version != w.Version {
		t.Errorf("name/map/game/version = %q %q %q %q, want %q %q %q %q", res.Name, res.Map, res.Game, res.Version, w.Name, w.Map, w.Game, w.Version)
	}
	if res.Players != w.Players || res.MaxPlayers != w.MaxPlayers || res.Bots != w.Bots || res.Password != w.Password {
		t.Errorf("players %+v max %+v bots %+v password %v, want %+v %+v %+v %v",
			res.Players, res.MaxPlayers, res.Bots, res.Password, w.Players, w.MaxPlayers, w.Bots, w.Password)
	}
	if fmt.Sprint(res.PlayerList) != fmt.Sprint(w.PlayerList) {
		t.Errorf("players = %+v, want %+v", res.PlayerList, w.PlayerList)
	}
	if len(res.Rules) != w.Rules || len(res.Info) != w.Rules || len(res.PhaseErrors) != 0 {
		t.Errorf("rules = %q, info = %q, phase errors %v; want %d rules", res.Rules, res.Info, res.PhaseErrors, w.Rules)
	}
}
