package gamespy4

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstat queries one fake vanilla-like server with quakestat -gs4 and with the
// Querier. quakestat sends the handshake (FE FD 09 10 20 30 40), then a 20-byte
// key-list request (… 06 01 06 05 08 0A 04 00 00), which vanilla answers with the
// basic stat because it is not 15 bytes long; the Querier asks for the full stat.
// quakestat needs a challenge reply of at least 12 bytes and drops bytes above 0x7F
// from its output, so the token has 7 digits and the names are ASCII.
func TestQstat(t *testing.T) {
	full := bytes.Replace(vector(t, "full_vanilla"), []byte("\xa7aCaf\xe9 \xa7lCraft\xa7r "), []byte("Cafe Craft"), 1)
	basic := bytes.Replace(vector(t, "basic"), []byte("\xa7cBasic \xa7fServer"), []byte("Cafe Craft"), 1)
	basic = bytes.Replace(basic, []byte("\x002\x0020\x00"), []byte("\x003\x0020\x00"), 1) // same counts as full
	var challenge []byte
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		switch {
		case len(req) == 7 && req[2] == 0x09:
			challenge = []byte{0x00, 0x91, 0x29, 0x5B}
			return gt.ChallengeReply(req, "9513307")
		case len(req) < 11 || req[2] != 0x00 || !bytes.Equal(req[7:11], challenge):
			t.Logf("request % x not answered", req)
			return nil
		case len(req) == 15:
			return [][]byte{gt.WithSession(full, req[3:7])}
		}
		return [][]byte{gt.WithSession(basic, req[3:7])}
	})
	res, qs := prototest.QstatQuery(t, "-gs4", addr, Protocol, protocols.Settings{Players: true})
	if qs.Game != "SMP" {
		t.Errorf("qstat gametype %q", qs.Game)
	}
	// With -P quakestat asks for the full stat (FF FF FF 01 as the 4 padding bytes,
	// 15 bytes in all) and lists the players.
	out := string(prototest.Qstat(t, "-raw", ",", "-P", "-gs4", addr.String()))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1+len(res.PlayerList) || !strings.Contains(lines[0], ",Cafe Craft,world,20,3,") {
		t.Fatalf("quakestat -P output %q", out)
	}
	for i, p := range res.PlayerList {
		if !strings.HasPrefix(lines[len(lines)-1-i], p.Name+",") && !strings.HasPrefix(lines[1+i], p.Name+",") {
			t.Errorf("player %q not listed by quakestat: %q", p.Name, out)
		}
	}
}
