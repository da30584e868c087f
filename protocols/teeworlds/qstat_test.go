package teeworlds

import (
	"strconv"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstat06 queries one fake 0.6 server with quakestat -tees and with the
// Querier. qstat sends gie, gie2 and gie3 (token 0); the fake answers gie3.
// qstat's numplayers/maxplayers are the in-game players and player slots,
// which the Querier keeps in info (its Players/MaxPlayers count clients, as
// the game's browser does). qstat misreads 0.6 client entries, so names are
// not compared.
func TestQstat06(t *testing.T) {
	prototest.NeedQstat(t)
	f := &fake{body06: body06(t, "v06_players.hex")}
	addr := prototest.UDP(t, f.handle)
	qs := prototest.QstatJSON(t, "-tees", addr)
	q, _ := newQuerier(settings(version06, 0))
	res, err := q.Query(prototest.Context(t, 2*time.Second), protocols.At(addr), nil)
	if err != nil {
		t.Fatal(err)
	}
	info := map[string]string{}
	for _, kv := range res.Info {
		info[kv.Key] = kv.Value
	}
	if qs.Status != "online" || qs.Name != res.Name || qs.Map != res.Map || qs.Game != res.Game {
		t.Errorf("qstat %+v, querier %q %q %q", qs, res.Name, res.Map, res.Game)
	}
	if strconv.Itoa(qs.NumPlayers) != info["num_players"] || strconv.Itoa(qs.MaxPlayers) != info["max_players"] {
		t.Errorf("qstat %d/%d, querier info %s/%s", qs.NumPlayers, qs.MaxPlayers, info["num_players"], info["max_players"])
	}
}
