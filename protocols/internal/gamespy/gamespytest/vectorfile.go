package gamespytest

import (
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// vectorJSON is one Vector of a package's testdata/vectors.json: Why says the
// quirk it pins, Error is a reason, a count the reply does not send is absent.
type vectorJSON struct {
	Name, Why, Decoder, Error string
	Head                      *headJSON
	Bots                      *int64
	Rows                      []rowJSON
	NoResult                  bool     `json:"no_result"`
	NoList                    bool     `json:"no_list"`
	NoInfo                    bool     `json:"no_info"`
	NotInfo                   []string `json:"not_info"`
}

type headJSON struct {
	Name, Map, Game, Version string
	Players, Max             *int64
	Password                 *bool
	Info                     map[string]string
}

type rowJSON struct {
	Name, Team  string
	Score, Ping *int64
	Bot         bool
}

func count(n *int64) protocols.Count {
	if n == nil {
		return protocols.Count{}
	}
	return protocols.Known(*n)
}

// vector is j as CheckVector takes it.
func (j vectorJSON) vector(t testing.TB) Vector {
	v := Vector{Name: j.Name, Decoder: j.Decoder, NoResult: j.NoResult, Bots: count(j.Bots), NoList: j.NoList, NoInfo: j.NoInfo, NotInfo: j.NotInfo}
	if j.Error != "" {
		for _, e := range []error{wire.ErrMalformed, wire.ErrTruncated, wire.ErrTooLarge} {
			if e.Error() == j.Error {
				v.Err = e
			}
		}
		if v.Err == nil {
			t.Fatalf("vector %s: no such reason %q", j.Name, j.Error)
		}
	}
	h := j.Head
	if h == nil {
		h = &headJSON{}
	}
	v.Head = Head{Name: h.Name, Map: h.Map, Game: h.Game, Version: h.Version, Players: count(h.Players), Max: count(h.Max), Info: h.Info}
	if h.Password != nil {
		v.Password = protocols.FlagOf(*h.Password)
	}
	for _, r := range j.Rows {
		v.Rows = append(v.Rows, Row{Name: r.Name, Score: count(r.Score), Ping: count(r.Ping), Team: r.Team, Bot: r.Bot})
	}
	return v
}

// Vectors checks, in a subtest named for each, the vectors of the package's
// testdata/vectors.json (CheckVector): decode decodes the vector's datagrams.
func Vectors(t *testing.T, decode func(t *testing.T, v Vector) (*protocols.Result, error)) {
	vs := prototest.ReadJSON[[]vectorJSON](t, filepath.Join("testdata", "vectors.json"))
	if len(vs) == 0 {
		t.Fatal("no vectors in testdata/vectors.json")
	}
	for _, j := range vs {
		v := j.vector(t)
		t.Run(v.Name, func(t *testing.T) {
			res, err := decode(t, v)
			CheckVector(t, res, err, v)
		})
	}
}
