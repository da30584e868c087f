package gamespy3

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstat queries one fake server with quakestat -gs3 -P and with the Querier.
// quakestat sends FE FD 00 10 20 30 40 FF FF FF 01 at once (no handshake); the
// Querier first sends the handshake, which this server answers with token "0" as
// Battlefield 2 does. The reply is the 3-packet split3 vector, in order.
func TestQstat(t *testing.T) {
	v := vector(t, "split3")
	// quakestat's JSON output drops bytes above 0x7F: keep the name ASCII.
	v[0] = bytes.Replace(bytes.Replace(v[0], []byte{0xab}, []byte("<"), 1), []byte{0xbb}, []byte(">"), 1)
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		if len(req) < 7 {
			return nil
		}
		if req[2] == 0x09 {
			return gt.ChallengeReply(req, "0")
		}
		if len(req) != 11 || req[10] != 0x01 {
			t.Logf("request % x not answered", req)
			return nil
		}
		out := make([][]byte, len(v))
		for i, p := range v {
			out[i] = gt.WithSession(p, req[3:7])
		}
		return out
	})
	qs := prototest.QstatJSON(t, "-gs3", addr, "-P")
	if qs.Status != "online" {
		t.Fatalf("qstat: %+v", qs)
	}
	q, _ := Protocol.New(protocols.Settings{Players: true})
	res, err := q.Query(prototest.Context(t, gt.Long), protocols.At(addr), nil)
	if err != nil {
		t.Fatal(err)
	}
	// qstat counts bots as players: humans + bots is its count.
	if res.Name != qs.Name || res.Map != qs.Map || res.Players.Value+res.Bots.Value != int64(qs.NumPlayers) || res.MaxPlayers.Value != int64(qs.MaxPlayers) {
		t.Errorf("querier %q %q %v+%v bots/%v, qstat %q %q %d/%d", res.Name, res.Map, res.Players, res.Bots, res.MaxPlayers,
			qs.Name, qs.Map, qs.NumPlayers, qs.MaxPlayers)
	}
	// Players from -raw output (one "name,score,ping,team,..." line each, in
	// reverse order, names untrimmed): same scores, pings and 1-based team names.
	raw := strings.Split(strings.TrimSpace(string(prototest.Qstat(t, "-raw", ",", "-P", "-gs3", addr.String()))), "\n")
	var got, want []string
	for _, line := range raw[1:] {
		f := strings.Split(line, ",")
		if len(f) < 4 || strings.Contains(f[0], "TAG") { // qstat mangles the Latin-1 é
			continue
		}
		want = append(want, strings.Join([]string{strings.TrimSpace(f[0]), f[1], f[2], f[3]}, ","))
	}
	for _, p := range res.PlayerList {
		if !strings.Contains(p.Name, "TAG") {
			got = append(got, fmt.Sprintf("%s,%d,%d,%s", p.Name, p.Score.Value, p.Ping.Value, p.Team))
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || len(got) != 2 {
		t.Errorf("players %q, qstat %q", got, want)
	}
}
