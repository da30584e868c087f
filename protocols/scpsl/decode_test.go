package scpsl

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

type expected struct {
	prototest.Expected
	Vector      string   `json:"vector"`
	Port        uint16   `json:"port"`
	ServerID    int64    `json:"server_id"`
	PlayerNames []string `json:"player_names"`
	Contains    string   `json:"contains"`
}

// decodeVector runs a body through what the querier does after the HTTP
// exchange: decode, Success, pick, result.
func decodeVector(body []byte, id int64, port uint16, players bool) (*protocols.Result, error) {
	a, err := decode(body)
	if err != nil {
		return nil, err
	}
	if !*a.Success {
		return nil, apiError(a, 0, "")
	}
	s, err := a.pick(id, port)
	if err != nil {
		return nil, err
	}
	return s.result(players)
}

// TestVectors decodes every answer in testdata/.
func TestVectors(t *testing.T) {
	for _, name := range prototest.Names(t, ".expected.json") {
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[expected](t, filepath.Join("testdata", name+".expected.json"))
			vector := name
			if e.Vector != "" {
				vector = e.Vector
			}
			res, err := decodeVector(prototest.File(t, vector+".json"), e.ServerID, e.Port, true)
			prototest.CheckExpected(t, e.Expected, res, err)
			if err != nil {
				if !strings.Contains(err.Error(), e.Contains) {
					t.Errorf("error %q, want it to say %q", err, e.Contains)
				}
				return
			}
			if got := prototest.ListNames(res); !slices.Equal(got, e.PlayerNames) {
				t.Errorf("players %q, want %q", got, e.PlayerNames)
			}
			if res, _ := decodeVector(prototest.File(t, vector+".json"), e.ServerID, e.Port, false); res.PlayerList != nil {
				t.Errorf("players listed without the module asking: %+v", res.PlayerList)
			}
		})
	}
}

func TestStripRichText(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                              "plain",
		"<color=#b0b>A</color><b>B</b>":      "AB",
		"<size=10>x</size> <SIZE=5>y</SIZE>": "x y",
		"a < b > c":                          "a < b > c",
		"<Testing> and <color=red>red":       "<Testing> and red",
		"unclosed <color=red":                "unclosed <color=red",
		"<align=\"center\"><i>x</i></align>": "x",
	} {
		if got := stripRichText(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// The key never appears in an error, even if Northwood echoed it.
func TestErrorTextMasksKey(t *testing.T) {
	a := &answerJSON{Error: "Invalid key abcSECRETdef for account 1"}
	err := apiError(a, 401, "abcSECRETdef")
	if got := err.Error(); got != `server_error: Northwood serverinfo (HTTP 401) refused: "Invalid key <secret> for account 1" (check account_id and the API key)` {
		t.Errorf("%s", got)
	}
}

// FuzzDecode checks that no answer panics the decoder and that every server
// it maps gives a valid UTF-8 result with counts in range and a capped list.
func FuzzDecode(f *testing.F) {
	prototest.SeedFiles(f, "*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := decode(b)
		if err != nil {
			return
		}
		if len(a.Servers) > maxServers {
			t.Fatalf("%d servers kept", len(a.Servers))
		}
		apiError(a, 0, "k")
		for i := range a.Servers {
			res, err := a.Servers[i].result(true)
			if err != nil {
				continue
			}
			prototest.CheckUTF8(t, res)
			if res.Players.Value < 0 || res.Players.Value > maxPlayers || res.MaxPlayers.Value > maxPlayers || len(res.PlayerList) > maxListed || res.Bots.Known {
				t.Fatalf("players %+v, max %+v, %d listed", res.Players, res.MaxPlayers, len(res.PlayerList))
			}
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "serverinfo_basic.json"), func(data []byte) error {
		_, err := decodeVector(data, 0, 7777, true)
		return err
	})
}
